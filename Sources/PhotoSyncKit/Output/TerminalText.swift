/// Untrusted text (titles, names, error details) made safe to print on a terminal.
///
/// Every control character is shown as a visible escape, `\u{1B}` (the scalar's hex value,
/// upper case, in braces), so a title cannot recolour the terminal, move the cursor, split a row
/// or reverse the text after it: C0 (tab, CR and LF included), DEL, C1, and the bidi embedding,
/// override and isolate controls (U+202A–U+202E, U+2066–U+2069).
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
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
