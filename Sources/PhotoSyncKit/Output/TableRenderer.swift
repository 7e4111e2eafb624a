import Foundation

/// Plain-text columns sized to their widest cell, measured in terminal columns.
struct TableRenderer {
    struct Column {
        var header: String
        /// Longer cells are cut and end with "…".
        var maxWidth: Int?
        var alignRight = false
        /// Narrowed first (in column order) when the table is wider than `lineWidth`.
        var shrinks = false
        /// Left out when even the narrowest table is wider than `lineWidth` (a detail the terminal
        /// has no room for), before falling back to one block per row.
        var dropsWhenNarrow = false
    }

    var columns: [Column]
    /// The terminal's width: shrinkable columns are cut (with "…") so no line is longer; nil: no limit.
    var lineWidth: Int? = nil

    /// The narrowest a shrinkable column gets.
    static let minimumShrunkWidth = 8

    /// The header and rows (one cell per column), each line ending in a newline, with no trailing spaces.
    ///
    /// When even the narrowest table (every shrinkable column at `minimumShrunkWidth`, the others
    /// whole) is wider than `lineWidth`, each row becomes a block of `label: value` lines instead
    /// (`RecordBlocks`), as `kubectl` and `gh` do: a row that wraps is unreadable.
    func render(_ rows: [[String]]) -> String {
        let (cells, widths) = layout(rows)
        guard let lineWidth else { return lines(cells, widths) }
        guard Self.narrowestWidth(columns, widths) <= lineWidth else {
            // Blocks have room for every column, the optional ones included.
            return withoutOptionalColumns(rows, widths, lineWidth)
                ?? RecordBlocks(labels: columns.map(\.header), lineWidth: lineWidth).render(rows)
        }
        guard let narrower = narrowed(widths, to: lineWidth) else { return lines(cells, widths) }
        return TableRenderer(columns: narrower).render(rows)
    }

    /// The table without its `dropsWhenNarrow` columns, when that fits `lineWidth`; nil otherwise.
    private func withoutOptionalColumns(_ rows: [[String]], _ widths: [Int], _ lineWidth: Int) -> String? {
        let kept = columns.indices.filter { !columns[$0].dropsWhenNarrow }
        guard kept.count < columns.count, Self.narrowestWidth(kept.map { columns[$0] }, kept.map { widths[$0] }) <= lineWidth else { return nil }
        return TableRenderer(columns: kept.map { columns[$0] }, lineWidth: lineWidth).render(rows.map { row in kept.map { row[$0] } })
    }

    /// The narrowest line a table with these column widths can have.
    static func narrowestWidth(_ columns: [Column], _ widths: [Int]) -> Int {
        let cells = zip(columns, widths).map { column, width in column.shrinks ? min(width, minimumShrunkWidth) : width }
        return cells.reduce(0, +) + 2 * (columns.count - 1)
    }

    /// The columns with smaller `maxWidth`s so the line fits `lineWidth`, or nil when it fits already.
    private func narrowed(_ widths: [Int], to lineWidth: Int) -> [Column]? {
        var excess = widths.reduce(0, +) + 2 * (columns.count - 1) - lineWidth
        guard excess > 0 else { return nil }
        var narrower = columns
        for index in columns.indices where columns[index].shrinks && excess > 0 {
            let cut = min(excess, max(0, widths[index] - Self.minimumShrunkWidth))
            narrower[index].maxWidth = widths[index] - cut
            excess -= cut
        }
        return narrower
    }

    /// Every cell, measured and cut to its column's `maxWidth`, and each column's width.
    private func layout(_ rows: [[String]]) -> ([Cell], [Int]) {
        var cells: [Cell] = []
        cells.reserveCapacity((rows.count + 1) * columns.count)
        var widths = columns.map { _ in 0 }
        // A text that is not plain ASCII is measured character by character; a prolific
        // photographer's name repeats on every row, so each column remembers its last one.
        var previous: [Cell?] = columns.map { _ in nil }
        for row in CollectionOfOne(columns.map(\.header)) + rows {
            precondition(row.count == columns.count, "a table row needs one cell per column")
            for (index, column) in columns.enumerated() {
                let text = row[index]
                let cell: Cell
                if let known = previous[index], Self.sameBytes(known.source, text) {
                    cell = known
                } else {
                    cell = Self.cell(text, column.maxWidth)
                    if !cell.isASCII { previous[index] = cell }
                }
                cells.append(cell)
                widths[index] = max(widths[index], cell.width)
            }
        }
        return (cells, widths)
    }

    private func lines(_ cells: [Cell], _ widths: [Int]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(cells.count / columns.count * (widths.reduce(0, +) + 2 * columns.count))
        for (position, cell) in cells.enumerated() {
            let index = position % columns.count
            let padding = widths[index] - cell.width
            if columns[index].alignRight { Self.appendSpaces(padding, to: &output) }
            Self.append(cell.text, to: &output)
            if index == columns.count - 1 {
                output.append(UInt8(ascii: "\n"))
            } else {
                if !columns[index].alignRight { Self.appendSpaces(padding, to: &output) }
                Self.appendSpaces(2, to: &output)
            }
        }
        // Every byte came from a String: valid UTF-8 already.
        return output.withUnsafeBufferPointer { unsafe String(copying: UTF8Span(unchecked: $0.span)) }
    }

    private struct Cell {
        /// The text as given, to recognise it on the next row.
        var source: String
        /// The text as printed: controls escaped (so on one line), cut to the column's width.
        var text: String
        var width: Int
        var isASCII: Bool
    }

    private static func cell(_ text: String, _ maxWidth: Int?) -> Cell {
        if isPlainASCII(text) {
            let count = text.utf8.count
            guard let maxWidth, count > maxWidth else { return Cell(source: text, text: text, width: count, isASCII: true) }
            var kept = text.utf8.prefix(max(0, maxWidth - 1))
            while kept.last == UInt8(ascii: " ") { kept.removeLast() }
            return Cell(source: text, text: String(Substring(kept)) + "…", width: kept.count + 1, isASCII: true)
        }
        let line = TerminalText.escaped(text)
        let lineWidth = width(of: line)
        guard let maxWidth, lineWidth > maxWidth else { return Cell(source: text, text: line, width: lineWidth, isASCII: false) }
        let cut = fit(line, to: maxWidth)
        return Cell(source: text, text: cut, width: width(of: cut), isASCII: false)
    }

    /// Byte-wise, not canonical, equality: an NFD name must print as NFD.
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        let contiguous = first.utf8.withContiguousStorageIfAvailable { a in
            second.utf8.withContiguousStorageIfAvailable { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        return contiguous.flatMap { $0 } ?? first.utf8.elementsEqual(second.utf8)
    }

    /// The text's bytes in one copy (appending a `String.UTF8View` goes element by element).
    private static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    private static func appendSpaces(_ count: Int, to output: inout [UInt8]) {
        for _ in 0..<max(0, count) { output.append(UInt8(ascii: " ")) }
    }

    /// Terminal columns `text` takes: wide East Asian characters and emoji count two.
    static func width(of text: String) -> Int {
        if isPlainASCII(text) { return text.utf8.count }
        var (total, last) = (0, 0)
        for scalar in text.unicodeScalars {
            if scalar == "\u{FE0F}", last > 0 {
                // Emoji presentation: the character before takes two columns.
                (total, last) = (total - last + 2, 2)
                continue
            }
            guard let columns = columnsAlone(scalar) else { return text.reduce(0) { $0 + width(of: $1) } }
            (total, last) = (total + columns, columns)
        }
        return total
    }

    /// Columns of a scalar that is always a character of its own (never combined with a neighbour):
    /// Latin, Greek and Cyrillic letters, common punctuation, kana, hangul syllables and CJK
    /// ideographs. `nil` for the rest (controls included), whose character boundaries must be found.
    private static func columnsAlone(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x20..<0x7F, 0xA0..<0xAD, 0xAE..<0x300, 0x370..<0x483, 0x2010...0x2027, 0x2030...0x205E: 1
        case 0x3041...0x3096, 0x30A0...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF60: 2
        default: nil
        }
    }

    /// Printable ASCII only: one column per byte, nothing to replace (the common case, checked fast).
    private static func isPlainASCII(_ text: String) -> Bool {
        let isPrintable = { (byte: UInt8) in byte >= 0x20 && byte < 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPrintable) } ?? text.utf8.allSatisfy(isPrintable)
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]

    private static func width(of character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        if scalar.isASCII { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// Cuts a text wider than `maxWidth` to that many columns, the ellipsis included, so the cut
    /// never ends in a dangling space.
    static func fit(_ text: String, to maxWidth: Int) -> String {
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
