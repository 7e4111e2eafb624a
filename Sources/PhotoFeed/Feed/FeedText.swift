/// The one rule for NUL in text from a feed: it becomes U+FFFD (the replacement character), in
/// every text value, on both stores. PostgreSQL cannot store NUL and C strings end at it; dropping
/// it silently would join two words, while U+FFFD shows that something was there.
public enum FeedText {
    public static let nulReplacement: Unicode.Scalar = "\u{FFFD}"

    /// `text` with every NUL replaced by U+FFFD (for text that did not come through the decoder,
    /// such as a catalog written before the rule).
    @Sendable public static func withoutNUL(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacing("\u{0}", with: String(nulReplacement)) : text
    }
}
