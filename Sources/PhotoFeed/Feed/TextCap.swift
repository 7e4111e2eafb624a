/// Caps on text fields, so a hostile feed cannot fill the catalog (a 50 MB title once grew it by
/// 105 MB, indexed) or the memory of every later `list`. Measured in UTF-8 bytes, cut on a
/// character boundary (never inside a scalar, nor between a letter and its combining accent).
enum TextCap {
    /// Title and description: 64 KiB.
    static let longText = 64 * 1024
    /// Owner name and owner id (NSID): 1 KiB.
    static let name = 1024
    /// `url_l`, `server` and `secret` longer than these are treated as absent: a cut URL is wrong.
    static let url = 8 * 1024
    static let urlPart = 256

    /// `text`, or its longest prefix of whole characters within `bytes` UTF-8 bytes.
    static func cut(_ text: String, toBytes bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        // Rounded down to a scalar boundary, then back to a character boundary; a character is at
        // most a few dozen scalars in real text, so give up on that after 64 and cut at the scalar.
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
        while end > text.startIndex && UTF8.isContinuation(text.utf8[end]) { end = text.utf8.index(before: end) }
        var characterEnd = end
        for _ in 0..<64 {
            if characterEnd.samePosition(in: text) != nil { return String(text[..<characterEnd]) }
            guard characterEnd > text.startIndex else { break }
            characterEnd = text.unicodeScalars.index(before: characterEnd)
        }
        return String(text.unicodeScalars[..<end])
    }

    /// nil for a value longer than `bytes`: for parts of a URL, which must not be cut.
    static func within(_ text: String?, bytes: Int) -> String? {
        guard let text, text.utf8.count <= bytes else { return nil }
        return text
    }
}
