/// RFC 4180 CSV: CRLF line ends, fields quoted only when they hold a comma, a quote or a line break.
enum CSVWriter {
    static func render(header: [String], rows: [[String]]) -> String {
        var output: [UInt8] = []
        for row in CollectionOfOne(header) + rows {
            for (index, text) in row.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if needsQuotes(text) {
                    output.append(contentsOf: ("\"" + text.replacing("\"", with: "\"\"") + "\"").utf8)
                } else {
                    output.append(contentsOf: text.utf8)
                }
            }
            output.append(contentsOf: "\r\n".utf8)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A byte scan settles plain text; only text with special or non-ASCII bytes is read as characters.
    private static func needsQuotes(_ text: String) -> Bool {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "\"") && $0 >= 0x20 && $0 < 0x80 }
        }
        if plain == true { return false }
        return text.contains { $0 == "," || $0 == "\"" || $0.isNewline }
    }
}
