/// A small terminal emulator: what a VT100-style screen shows after a stream of bytes.
///
/// Enough for a command-line tool's output: printable text with auto-wrap at the right margin
/// (xterm's deferred wrap: the cursor waits in the last column until the next character), CR,
/// LF, backspace, erase in line (`ESC [ K`, 0/1/2) and scrolling. Other escape sequences are
/// consumed and ignored. Every row remembers whether it began as the wrap of the one above, so a
/// test can tell a wrapped fragment from a line of its own.
public struct TerminalScreen: Sendable {
    public let columns: Int
    public let rowCount: Int
    /// The visible rows, top first, each `columns` wide (blanks are spaces).
    public private(set) var rows: [[Character]]
    /// Whether each row was begun by an auto-wrap of the row above.
    public private(set) var continues: [Bool]
    /// Every row's text at the moment the cursor wrapped off its end, in order.
    public private(set) var wrapped: [String] = []
    private var row = 0
    private var column = 0
    private var pendingWrap = false
    private var escape: [Character]?

    public init(columns: Int, rows: Int = 24) {
        self.columns = columns
        rowCount = rows
        self.rows = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        continues = Array(repeating: false, count: rows)
    }

    /// The rows as text, trailing blanks removed.
    public var lines: [String] { rows.map { Self.trimmed($0) } }

    /// The rows that hold something, top first.
    public var nonEmptyLines: [String] { lines.filter { !$0.isEmpty } }

    /// Feeds `text` (decoded UTF-8) through the emulator; `afterEach` sees the screen after every
    /// control character, where a redraw or a print is complete.
    public mutating func feed(_ text: String, afterEach: ((TerminalScreen) -> Void)? = nil) {
        for character in text {
            let inEscape = escape != nil
            consume(character)
            let control = character.unicodeScalars.first.map { $0.value < 0x20 && $0 != "\u{1B}" } ?? false
            if (!inEscape && control) || (inEscape && escape == nil) { afterEach?(self) }
        }
    }

    private mutating func consume(_ character: Character) {
        if var sequence = escape {
            sequence.append(character)
            escape = sequence
            finishEscapeIfComplete(sequence)
            return
        }
        switch character {
        case "\u{1B}": escape = []
        case "\r", "\r\n": 
            column = 0
            pendingWrap = false
            if character == "\r\n" { lineFeed() }
        case "\n": lineFeed()
        case "\u{8}": 
            column = max(0, column - 1)
            pendingWrap = false
        case "\u{7}": break
        default: put(character)
        }
    }

    private mutating func put(_ character: Character) {
        if pendingWrap {
            wrapped.append(Self.trimmed(rows[row]))
            column = 0
            lineFeed()
            continues[row] = true
            pendingWrap = false
        }
        rows[row][column] = character
        if column == columns - 1 { pendingWrap = true } else { column += 1 }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if row == rowCount - 1 {
            rows.removeFirst()
            rows.append(Array(repeating: " ", count: columns))
            continues.removeFirst()
            continues.append(false)
        } else {
            row += 1
            continues[row] = false
        }
    }

    /// `ESC [ params final`: acts on `K` (erase in line); ignores the rest. Other `ESC x` pairs end at once.
    private mutating func finishEscapeIfComplete(_ sequence: [Character]) {
        guard let first = sequence.first else { return }
        guard first == "[" else { escape = nil; return }
        guard sequence.count > 1, let last = sequence.last, let value = last.asciiValue, (0x40...0x7E).contains(value) else { return }
        escape = nil
        guard last == "K" else { return }
        let mode = Int(String(sequence.dropFirst().dropLast())) ?? 0
        let range = switch mode {
        case 1: 0...column
        case 2: 0...(columns - 1)
        default: column...(columns - 1)
        }
        for index in range { rows[row][index] = " " }
        pendingWrap = false
    }

    private static func trimmed(_ row: [Character]) -> String {
        var text = String(row)
        while text.last == " " { text.removeLast() }
        return text
    }
}
