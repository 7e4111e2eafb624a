internal import GRDB
internal import GRDBSQLite

/// The SQLite collation behind `.numericText`, the order of Finder and `localizedStandardCompare`
/// without its locale: runs of ASCII digits compare by value ("9" < "10" < "0100"), everything
/// else case-insensitively (``FoldFunction``), then byte by byte. Punctuation below "0" in ASCII
/// ("-", ".") sorts before digits, letters after them. Runs equal in value ("007", "7") tie here;
/// the fetch breaks the tie by bytes.
///
/// Registered through the C API: it reads SQLite's buffers in place, with no `String` per
/// comparison, and runs only for a query that sorts with `.numericText`.
enum NumericTextCollation {
    static let name = "graphstore_numeric"

    static func register(on connection: OpaquePointer) throws {
        let code = sqlite3_create_collation_v2(connection, name, SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
            Int32(NumericTextCollation.compare(UnsafeRawBufferPointer(start: bytes1, count: Int(count1)),
                                               UnsafeRawBufferPointer(start: bytes2, count: Int(count2))))
        }, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)") }
    }

    static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        if a.allSatisfy({ $0 < 0x80 }) && b.allSatisfy({ $0 < 0x80 }) { return compareFolded(a, b) }
        var (x, y) = (FoldFunction.fold(String(decoding: a, as: UTF8.self)), FoldFunction.fold(String(decoding: b, as: UTF8.self)))
        return x.withUTF8 { x in y.withUTF8 { y in compareFolded(UnsafeRawBufferPointer(x), UnsafeRawBufferPointer(y)) } }
    }

    /// Digit runs by value, other bytes with ASCII letters lowered (the rest is folded already).
    private static func compareFolded(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        var (i, j) = (0, 0)
        while i < a.count && j < b.count {
            if isDigit(a[i]) && isDigit(b[j]) {
                let (startA, endA) = digitRun(a, from: i)
                let (startB, endB) = digitRun(b, from: j)
                if endA - startA != endB - startB { return endA - startA < endB - startB ? -1 : 1 }
                for offset in 0..<(endA - startA) where a[startA + offset] != b[startB + offset] {
                    return a[startA + offset] < b[startB + offset] ? -1 : 1
                }
                (i, j) = (endA, endB)
                continue
            }
            let (x, y) = (lowered(a[i]), lowered(b[j]))
            if x != y { return x < y ? -1 : 1 }
            (i, j) = (i + 1, j + 1)
        }
        let (restA, restB) = (a.count - i, b.count - j)
        return restA == restB ? 0 : (restA < restB ? -1 : 1)
    }

    /// The run of digits at `start`: where its significant digits begin (after leading zeros) and its end.
    private static func digitRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (Int, Int) {
        var end = start
        while end < bytes.count && isDigit(bytes[end]) { end += 1 }
        var significant = start
        while significant < end - 1 && bytes[significant] == UInt8(ascii: "0") { significant += 1 }
        return (significant, end)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func lowered(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
}
