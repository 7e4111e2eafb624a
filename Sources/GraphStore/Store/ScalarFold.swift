/// ``FoldFunction/fold(_:)`` scalar by scalar, for the text where that gives the same bytes: a scan
/// for a rare word folds every title, and the full fold (three Foundation passes) was most of it.
///
/// The full fold is NFC(fold(NFD(text))). When every scalar decomposes to a starter (canonical
/// combining class 0) and none is a mark or a Hangul jamo (the only starters that compose with the
/// starter before them), no decomposition, reordering or composition crosses from one scalar to
/// the next, so the text's fold is its scalars' folds end to end. Those are computed once, by the
/// full fold itself, for U+0080–U+30FF (Latin, Greek, Cyrillic, symbols, kana); CJK ideographs and
/// variation selectors fold to themselves. A text with any other scalar takes the full fold.
enum ScalarFold {
    private static let tableEnd: UInt32 = 0x3100

    /// The folded UTF-8 of each scalar from U+0080 (empty: not foldable alone).
    private static let table: [[UInt8]] = (0x80..<tableEnd).map { value in
        guard let scalar = Unicode.Scalar(value), isolated(scalar) else { return [] }
        return Array(FoldFunction.fold(String(Character(scalar))).utf8)
    }

    private static func isolated(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        guard properties.canonicalCombiningClass == .notReordered, !(0x1100...0x11FF).contains(scalar.value) else { return false }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .unassigned, .surrogate: return false
        default: return true
        }
    }

    /// Appends the fold of UTF-8 `text` to `folded`; false (and `folded` unusable) when a scalar
    /// needs the full fold or the bytes are not valid UTF-8.
    static func fold(_ text: UnsafeRawBufferPointer, into folded: inout [UInt8]) -> Bool {
        var index = 0
        while index < text.count {
            let lead = text[index]
            if lead < 0x80 {
                folded.append(lead >= 0x41 && lead <= 0x5A ? lead + 0x20 : lead)
                index += 1
                continue
            }
            guard let (value, length) = decode(text, at: index) else { return false }
            if value < tableEnd {
                let bytes = table[Int(value - 0x80)]
                if bytes.isEmpty { return false }
                folded.append(contentsOf: bytes)
            } else if (0x4E00...0x9FFF).contains(value) || (0xFE00...0xFE0F).contains(value) {
                folded.append(contentsOf: UnsafeRawBufferPointer(rebasing: text[index..<(index + length)]))
            } else {
                return false
            }
            index += length
        }
        return true
    }

    /// The scalar of a two- or three-byte sequence at `index` (longer ones take the full fold).
    private static func decode(_ text: UnsafeRawBufferPointer, at index: Int) -> (UInt32, Int)? {
        let lead = UInt32(text[index])
        func continuation(_ offset: Int) -> UInt32? {
            guard index + offset < text.count, text[index + offset] & 0xC0 == 0x80 else { return nil }
            return UInt32(text[index + offset] & 0x3F)
        }
        if lead & 0xE0 == 0xC0, let second = continuation(1) {
            let value = (lead & 0x1F) << 6 | second
            return value >= 0x80 ? (value, 2) : nil
        }
        if lead & 0xF0 == 0xE0, let second = continuation(1), let third = continuation(2) {
            let value = (lead & 0x0F) << 12 | second << 6 | third
            return value >= 0x800 && !(0xD800...0xDFFF).contains(value) ? (value, 3) : nil
        }
        return nil
    }
}
