/// Plain-text columns sized to their widest cell, measured in terminal columns.
struct TableRenderer {
    struct Column {
        var header: String
        /// Longer cells are cut and end with "…".
        var maxWidth: Int?
        var alignRight = false
    }

    var columns: [Column]

    /// The header and rows, each line ending in a newline, with no trailing spaces.
    func render(_ rows: [[String]]) -> String {
        // Cells are fitted and measured once; a text that is not plain ASCII (measured character by
        // character) once per column: a prolific photographer's name repeats on every row.
        var fitted = columns.map { _ in [String: Cell]() }
        let cells = ([columns.map(\.header)] + rows).map { row in
            zip(row, columns).enumerated().map { index, pair in
                let (text, column) = pair
                if Self.isPlainASCII(text) { return Self.cell(text, column.maxWidth) }
                if let known = fitted[index][text] { return known }
                let cell = Self.cell(text, column.maxWidth)
                fitted[index][text] = cell
                return cell
            }
        }
        let widths = columns.indices.map { index in cells.map { $0[index].width }.max() ?? 0 }
        var output = ""
        output.reserveCapacity(cells.count * (widths.reduce(0, +) + 2 * columns.count))
        for row in cells {
            for (index, cell) in row.enumerated() {
                let padding = widths[index] - cell.width
                let isLast = index == row.count - 1
                if columns[index].alignRight { Self.appendSpaces(padding, to: &output) }
                output += cell.text
                if !isLast {
                    if !columns[index].alignRight { Self.appendSpaces(padding, to: &output) }
                    output += "  "
                }
            }
            output += "\n"
        }
        return output
    }

    private struct Cell {
        var text: String
        var width: Int
    }

    private static func cell(_ text: String, _ maxWidth: Int?) -> Cell {
        let text = fit(singleLine(text), to: maxWidth)
        return Cell(text: text, width: width(of: text))
    }

    /// Runs of spaces made once: padding is one append, not one per space.
    private static let spaces = (0...64).map { String(repeating: " ", count: $0) }

    private static func appendSpaces(_ count: Int, to output: inout String) {
        var left = max(0, count)
        while left > 0 {
            let run = min(left, spaces.count - 1)
            output += spaces[run]
            left -= run
        }
    }

    /// Terminal columns `text` takes: wide East Asian characters and emoji count two.
    static func width(of text: String) -> Int {
        if isPlainASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + width(of: $1) }
    }

    /// Printable ASCII only: one column per byte, nothing to replace (the common case, checked fast).
    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]

    private static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.isASCII { return 1 }
        if scalar.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        return wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// Newlines and tabs in a title would break the row.
    private static func singleLine(_ text: String) -> String {
        if isPlainASCII(text) { return text }
        return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    /// Cuts to `maxWidth` columns, the ellipsis included, so the cut never ends in a dangling space.
    private static func fit(_ text: String, to maxWidth: Int?) -> String {
        guard let maxWidth, width(of: text) > maxWidth else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = width(of: character)
            if used + next > maxWidth - 1 { break }
            result.append(character)
            used += next
        }
        while result.last?.isWhitespace == true { result.removeLast() }
        return result + "…"
    }
}
