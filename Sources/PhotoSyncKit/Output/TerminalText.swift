/// Untrusted text (titles, names, error details) made safe to print on a terminal.
///
/// Every control character is shown as a visible escape, `\u{1B}` (the scalar's hex value,
/// upper case, in braces), so a title cannot recolour the terminal, move the cursor, split a row
/// or reverse the text after it: C0 (tab, CR and LF included), DEL, C1, the bidi embedding,
/// override and isolate controls (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F), the
/// line and paragraph separators (U+2028, U+2029: some terminals break lines there), and the
/// invisible characters that hide text (U+180E, U+200B, U+2060–U+2064, U+FEFF). The zero-width
/// joiners (U+200C, U+200D) stay: emoji sequences and several scripts need them.
enum TerminalText {
    /// `text` with every control escaped; `keeping` scalars pass as they are (CSV keeps tab, CR, LF).
    static func escaped(_ text: String, keeping: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
        guard needsEscaping(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !keeping(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Whether any scalar of `text` is a control (printable ASCII is checked byte by byte, fast).
    static func needsEscaping(_ text: String) -> Bool {
        let plain = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if plain == true { return false }
        return text.unicodeScalars.contains(where: isControl)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: true
        default: isInvisible(scalar)
        }
    }

    /// The line and paragraph separators and the characters that show nothing: escaped in tables
    /// and messages, kept as they are in CSV (data, where a separator is a quoted line break).
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029, 0x180E, 0x200B, 0x2060...0x2064, 0xFEFF: true
        default: false
        }
    }
}
