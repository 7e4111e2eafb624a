/// The folding GraphStore's case-insensitive queries use, for callers that compare text themselves.
///
/// A name typed by a user and matched in memory ("ana lima" against "Ana Lima") must fold exactly
/// as `FetchPredicate.contains(_:_:caseInsensitive:)` folds in SQL, or the two would disagree.
public enum TextFolding {
    /// Full Unicode case folding of the NFC text ("ß" and "SS" both become "ss"); accents are kept.
    public static func caseFolded(_ text: String) -> String {
        FoldFunction.fold(text)
    }

    /// A key that sorts text as a dictionary does when keys are compared byte by byte (SQLite's
    /// BINARY, PostgreSQL's `COLLATE "C"`, `<` on their UTF-8): case folded and accents ignored
    /// ("café" with "Cafe", before "Cafés"), then accents after the base letters ("cafe" before
    /// "café"). Store it beside the text to sort by it: the same order on either store, and no
    /// function runs per row at query time. Not for display; equal keys need a tie-break.
    public static func sortKey(_ text: String) -> String {
        SortKey.make(text)
    }
}
