/// A table too wide for the terminal, shown one record per block:
///
///     id:           53719862873
///     title:        Dunes at dawn
///     photographer: Ana Lima
///
/// Labels are the table's headers in lower case; each value is escaped like a cell and cut with
/// "…" to the width left after its label, so no line is longer than `lineWidth` (the labels
/// allowing). An empty value is left out. Blocks are separated by a blank line.
struct RecordBlocks {
    var labels: [String]
    var lineWidth: Int

    func render(_ rows: [[String]]) -> String {
        let names = labels.map { $0.lowercased() + ":" }
        let labelWidth = (names.map(\.count).max() ?? 0) + 1
        let valueWidth = max(4, lineWidth - labelWidth)
        let blocks = rows.map { row in
            zip(names, row).filter { !$0.1.isEmpty }.map { name, value in
                let shown = Self.cut(TerminalText.escaped(value), to: valueWidth)
                return (name + String(repeating: " ", count: labelWidth - name.count) + shown).trimmingTrailingSpaces() + "\n"
            }.joined()
        }
        return blocks.joined(separator: "\n")
    }

    private static func cut(_ text: String, to width: Int) -> String {
        TableRenderer.width(of: text) <= width ? text : TableRenderer.fit(text, to: width)
    }
}

extension String {
    /// The text without the spaces at its end (an empty value leaves none after its label).
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
