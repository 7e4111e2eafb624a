/// Short quoted excerpts of untrusted text for one-line error messages:
/// a 10 MB value or a newline must not turn a log line into a flood.
enum Quoting {
    static let maximumCharacters = 40

    static func excerpt(_ text: String) -> String {
        let flat = String(text.prefix(maximumCharacters).map { $0.isNewline ? " " : $0 })
        return "\"\(flat)\(text.dropFirst(maximumCharacters).isEmpty ? "" : "…")\""
    }
}
