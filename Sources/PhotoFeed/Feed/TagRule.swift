/// Flickr's normalized tags: what `tags` sends (one space-separated string) and what `list --tag`
/// matches. Normalizing is lowercasing and keeping only letters and digits, so `New York!` and
/// `newyork` are one tag.
public enum TagRule {
    /// At most this many tags a photo (Flickr's own limit), each at most 64 bytes.
    static let most = 75
    static let longest = 64

    /// `text` as a tag, or nil when nothing of it is left.
    public static func normalized(_ text: String) -> String? {
        var tag = ""
        for scalar in text.lowercased().unicodeScalars where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
            guard tag.utf8.count + String(scalar).utf8.count <= longest else { break }
            tag.unicodeScalars.append(scalar)
        }
        return tag.isEmpty ? nil : tag
    }

    /// The tags of a `tags` string, sorted, without repeats.
    static func tags(_ text: String) -> [String] {
        let words = text.split(whereSeparator: { $0.isWhitespace }).prefix(most)
        return Array(Set(words.compactMap { normalized(String($0)) })).sorted()
    }
}
