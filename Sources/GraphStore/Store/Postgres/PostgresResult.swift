internal import CLibPQ
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A command's result rows, in libpq's text format, read as ``StoredValue``s by column type.
final class PostgresResult {
    private let result: OpaquePointer
    let rowCount: Int
    let columnCount: Int
    private let types: [Oid]

    init(_ result: OpaquePointer) {
        self.result = result
        rowCount = Int(cpq_ntuples(result))
        columnCount = Int(cpq_nfields(result))
        types = (0..<columnCount).map { cpq_ftype(result, Int32($0)) }
    }

    deinit { cpq_clear(result) }

    /// How many rows an INSERT, UPDATE or DELETE touched.
    var affectedRows: Int { Int(String(cString: cpq_cmd_tuples(result))) ?? 0 }

    func value(_ row: Int, _ column: Int) -> StoredValue {
        let (row32, column32) = (Int32(row), Int32(column))
        if cpq_getisnull(result, row32, column32) != 0 { return .null }
        let count = Int(cpq_getlength(result, row32, column32))
        let bytes = UnsafeRawBufferPointer(start: cpq_getvalue(result, row32, column32), count: count)
        return StoredValue(postgresText: bytes, type: types[column])
    }

    func integer(_ row: Int, _ column: Int) -> Int64 {
        if case .integer(let value) = value(row, column) { return value }
        return 0
    }

    /// Every row, `width` columns after the first (the row id).
    func storedRows(width: Int) -> [StoredRow] {
        (0..<rowCount).map { row in StoredRow(rowID: integer(row, 0), values: (0..<width).map { value(row, $0 + 1) }) }
    }
}

/// The Oids of the types GraphStore binds and reads.
enum PostgresType {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let float4: Oid = 700
    static let float8: Oid = 701
}

extension StoredValue {
    /// The type a bound value declares (0 lets PostgreSQL infer it, for NULL).
    var postgresType: Oid {
        switch self {
        case .null: 0
        case .integer: PostgresType.int8
        case .real: PostgresType.float8
        case .text: PostgresType.text
        case .blob: PostgresType.bytea
        }
    }

    /// Text with a NUL character, which PostgreSQL's text cannot hold (SQLite's can): binding it as
    /// a C string would silently cut it short, so the statement is refused instead.
    var holdsNUL: Bool {
        guard case .text(let value) = self else { return false }
        // memchr: `utf8.contains` went byte by byte through every array literal a batch sends,
        // 4% of a PostgreSQL import's client CPU (issue 24).
        return value.utf8.withContiguousStorageIfAvailable { bytes in bytes.baseAddress.map { memchr($0, 0, bytes.count) != nil } ?? false }
            ?? value.utf8.contains(0)
    }

    /// The value in PostgreSQL's text format (nil for NULL). Doubles print their shortest exact
    /// form, which PostgreSQL reads back to the same bits.
    var postgresText: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .real(let value): value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-Infinity" : "Infinity") : "\(value)"
        case .text(let value): value
        case .blob(let value): "\\x" + value.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
        }
    }

    init(postgresText bytes: UnsafeRawBufferPointer, type: Oid) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case PostgresType.int8, PostgresType.int4, PostgresType.int2: self = Int64(text).map(StoredValue.integer) ?? .text(text)
        case PostgresType.float8, PostgresType.float4: self = Double(text).map(StoredValue.real) ?? .text(text)
        case PostgresType.bool: self = .integer(text == "t" ? 1 : 0)
        case PostgresType.bytea: self = .blob(Self.bytea(bytes))
        default: self = .text(text)
        }
    }

    /// `\x` followed by hex digits (PostgreSQL's default `bytea_output`).
    private static func bytea(_ bytes: UnsafeRawBufferPointer) -> Data {
        guard bytes.count >= 2 else { return Data() }
        var data = Data(capacity: (bytes.count - 2) / 2)
        var index = 2
        while index + 1 < bytes.count {
            data.append(hexValue(bytes[index]) << 4 | hexValue(bytes[index + 1]))
            index += 2
        }
        return data
    }

    private static func hexValue(_ digit: UInt8) -> UInt8 {
        digit <= UInt8(ascii: "9") ? digit &- UInt8(ascii: "0") : (digit | 0x20) &- UInt8(ascii: "a") &+ 10
    }
}
