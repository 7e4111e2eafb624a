#if canImport(Glibc)
import Glibc
#endif
internal import GRDB
internal import GRDBSQLite

/// The SQLite function behind a case-insensitive `contains`: `graphstore_fold_contains(text, needle)`
/// is `instr(graphstore_fold(text), graphstore_fold(needle)) > 0` (NULL when `text` is not text),
/// without a `String` per row. A search for a word few titles hold reads every row, and the
/// general function spent most of that scan making and folding strings: an ASCII text (most
/// titles) is compared in place with its letters lowered, which is its whole fold; most other
/// text is folded scalar by scalar from a table (``ScalarFold``), the rest as before. The needle
/// is folded once a statement (SQLite's auxiliary data).
enum FoldContainsFunction {
    static let name = "graphstore_fold_contains"

    /// The folded needle's bytes, kept by SQLite while the statement runs.
    private final class Needle {
        let bytes: [UInt8]
        let isASCII: Bool
        init(_ text: String) {
            bytes = Array(FoldFunction.fold(text).utf8)
            isASCII = bytes.allSatisfy { $0 < 0x80 }
        }
    }

    static func register(on connection: OpaquePointer) throws {
        let code = sqlite3_create_function_v2(connection, name, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, arguments in
            guard let arguments, let text = arguments[0], let needleValue = arguments[1],
                sqlite3_value_type(text) == SQLITE_TEXT, sqlite3_value_type(needleValue) == SQLITE_TEXT
            else { return sqlite3_result_null(context) }
            let needle = FoldContainsFunction.needle(context, needleValue)
            sqlite3_result_int(context, FoldContainsFunction.contains(FoldContainsFunction.bytes(text), needle) ? 1 : 0)
        }, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)") }
    }

    /// The statement's folded needle: made on the first row, then SQLite's auxiliary data.
    private static func needle(_ context: OpaquePointer?, _ value: OpaquePointer) -> Needle {
        if let kept = sqlite3_get_auxdata(context, 1) { return Unmanaged<Needle>.fromOpaque(kept).takeUnretainedValue() }
        let needle = Needle(String(decoding: bytes(value), as: UTF8.self))
        sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(needle).toOpaque()) { Unmanaged<Needle>.fromOpaque($0!).release() }
        return needle
    }

    /// A text value's bytes up to its first NUL, as the general function reads them (GRDB's `String`).
    private static func bytes(_ value: OpaquePointer) -> UnsafeRawBufferPointer {
        guard let start = sqlite3_value_text(value) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        let count = Int(sqlite3_value_bytes(value))
        let end = memchr(start, 0, count).map { UnsafeRawPointer($0) - UnsafeRawPointer(start) } ?? count
        return UnsafeRawBufferPointer(start: start, count: end)
    }

    private static func contains(_ text: UnsafeRawBufferPointer, _ needle: Needle) -> Bool {
        if text.allSatisfy({ $0 < 0x80 }) {
            // An ASCII text folds to ASCII: a needle with any other byte is not in it.
            return needle.isASCII && occurs(needle.bytes, in: text, lowering: true)
        }
        var scalars: [UInt8] = []
        scalars.reserveCapacity(text.count + 16)
        if ScalarFold.fold(text, into: &scalars) {
            return scalars.withUnsafeBytes { occurs(needle.bytes, in: $0, lowering: false) }
        }
        var folded = FoldFunction.fold(String(decoding: text, as: UTF8.self))
        return folded.withUTF8 { occurs(needle.bytes, in: UnsafeRawBufferPointer($0), lowering: false) }
    }

    /// Whether `needle` occurs in `text` byte for byte (with `text`'s ASCII capitals lowered).
    private static func occurs(_ needle: [UInt8], in text: UnsafeRawBufferPointer, lowering: Bool) -> Bool {
        guard needle.count <= text.count else { return false }
        guard let first = needle.first else { return true }
        for start in 0...(text.count - needle.count) where lowered(text[start], lowering) == first {
            var offset = 1
            while offset < needle.count && lowered(text[start + offset], lowering) == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }

    private static func lowered(_ byte: UInt8, _ lowering: Bool) -> UInt8 {
        lowering && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}
