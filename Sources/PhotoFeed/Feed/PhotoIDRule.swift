/// What counts as a usable photo id. Flickr ids are decimal digits; letters are allowed too
/// so test feeds and other Flickr-like services work, but nothing that could smuggle a path,
/// query or whitespace into the static URL or the catalog. At most 64 characters.
enum PhotoIDRule {
    static let maximumLength = 64

    /// The problem with `raw` as an id, or nil when it is usable.
    static func problem(with raw: LenientScalar?) -> String? {
        guard let raw else { return "missing id" }
        guard let text = raw.text else { return "id is not a string or number" }
        if text.isEmpty { return "empty id" }
        guard text.utf8.count <= maximumLength, text.utf8.allSatisfy(isASCIIAlphanumeric) else {
            return "id \(Quoting.excerpt(text)) is not 1–\(maximumLength) ASCII letters or digits"
        }
        return nil
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
