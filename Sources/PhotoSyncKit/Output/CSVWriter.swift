/// RFC 4180 CSV: CRLF line ends, fields quoted only when they hold a comma, a quote or a line break.
/// Tab, CR and LF are the only controls kept (inside quotes), with the line separators and
/// invisible characters (text, not commands); every other control is escaped as in the table
/// (`TerminalText`), so `cat photos.csv` cannot drive the terminal.
enum CSVWriter {
    static func render(header: [String], rows: [[String]]) -> String {
        var output: [UInt8] = []
        for row in CollectionOfOne(header) + rows {
            for (index, text) in row.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                append(text, to: &output)
            }
            output.append(contentsOf: "\r\n".utf8)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Works on bytes, not characters: a quote or comma followed by a combining mark is one
    /// `Character` that equals neither, yet a CSV reader still sees the quote or comma.
    private static func append(_ text: String, to output: inout [UInt8]) {
        let bytes = Array(TerminalText.escaped(text, keeping: isKeptInCSV).utf8)
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\t") }
            || bytes.withUnsafeBufferPointer { LineBreaks.found(in: $0) }
        guard needsQuotes else { return output.append(contentsOf: bytes) }
        output.append(UInt8(ascii: "\""))
        for byte in bytes {
            output.append(byte)
            if byte == UInt8(ascii: "\"") { output.append(byte) }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func isKeptInCSV(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\r" || scalar == "\n" || TerminalText.isInvisible(scalar)
    }
}
