/// What counts as a usable photo id. Flickr ids are decimal digits; letters are allowed too
/// so test feeds and other Flickr-like services work, but nothing that could smuggle a path,
/// query or whitespace into the static URL or the catalog. At most 64 characters.
///
/// A number is taken as the text it was sent as: `0012` stays `0012`, 30 digits stay 30 digits,
/// `-0` (not letters or digits) is skipped rather than merged with photo `0`, and a number that is
/// not an integer (`1.5`, `1e400`) is skipped rather than stored as `1.5` or `inf`.
enum PhotoIDRule {
    static let maximumLength = 64

    /// The id's text: a number's literal as sent, a string as it is.
    static func text(_ raw: LenientScalar?, numberText: String?) -> String? {
        numberText ?? raw?.text
    }

    /// The problem with the id, or nil when it is usable.
    static func problem(with raw: LenientScalar?, numberText: String? = nil) -> String? {
        guard let raw else { return "missing id" }
        if let numberText, !isIntegerLiteral(numberText) {
            return "id \(Quoting.excerpt(numberText)) is not an integer"
        }
        guard let text = text(raw, numberText: numberText) else { return "id is not a string or number" }
        if text.isEmpty { return "empty id" }
        guard text.utf8.count <= maximumLength, text.utf8.allSatisfy(isASCIIAlphanumeric) else {
            return "id \(Quoting.excerpt(text)) is not 1–\(maximumLength) ASCII letters or digits"
        }
        return nil
    }

    /// `-?[0-9]+`: no fraction, no exponent.
    private static func isIntegerLiteral(_ text: String) -> Bool {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
