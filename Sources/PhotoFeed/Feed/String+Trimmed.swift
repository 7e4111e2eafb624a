extension String {
    /// Without leading and trailing whitespace and newlines (Unicode's, so U+3000 and NBSP too).
    /// Returns `self` untouched when both ends are visible ASCII, which is the common case
    /// and skips the Unicode property lookups that dominated decoding profiles.
    var trimmed: String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        if Self.isVisibleASCII(first) && Self.isVisibleASCII(last) { return self }
        guard let start = firstIndex(where: { !$0.isWhitespace }),
              let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }

    private static func isVisibleASCII(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }
}
