/// Small helpers for writing SQL text. Identifiers come from the model (code), never from input;
/// values are always bound parameters.
enum SQL {
    static func quote(_ identifier: String) -> String {
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacing("\"", with: "\"\"") + "\""
    }

    static func placeholders(_ count: Int) -> String {
        count > 0 ? String(repeating: "?, ", count: count - 1) + "?" : ""
    }

    /// The size a list of `count` values is padded to (with a repeated value) so that statements
    /// with lists of similar length share one compiled statement: the next power of two up to 64,
    /// then the next multiple of 64.
    static func bucket(_ count: Int) -> Int {
        guard count > 64 else { return count <= 1 ? count : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount) }
        return (count + 63) / 64 * 64
    }

    /// A literal for a column DEFAULT in DDL (DDL cannot bind parameters). Defaults come from the model's code.
    static func literal(_ value: StoredValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): value.isFinite ? "\(value)" : "NULL"
        case .text(let value): "'" + value.replacing("'", with: "''") + "'"
        case .blob(let value): "X'" + value.map(hex).joined() + "'"
        }
    }
}

extension SQL {
    /// A ``literal(_:)`` (SQLite's spelling, as schema snapshots store defaults) in PostgreSQL's:
    /// only a blob's differs (`X'0A'` is `'\x0A'::bytea`).
    static func postgresLiteral(_ literal: String) -> String {
        guard literal.hasPrefix("X'") else { return literal }
        return "'\\x" + literal.dropFirst(2) + "::bytea"
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
