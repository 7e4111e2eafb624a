/// The folding GraphStore's case-insensitive queries use, for callers that compare text themselves.
///
/// A name typed by a user and matched in memory ("ana lima" against "Ana Lima") must fold exactly
/// as `FetchPredicate.contains(_:_:caseInsensitive:)` folds in SQL, or the two would disagree.
public enum TextFolding {
    /// Full Unicode case folding of the NFC text ("ß" and "SS" both become "ss"); accents are kept.
    public static func caseFolded(_ text: String) -> String {
        FoldFunction.fold(text)
    }
}
