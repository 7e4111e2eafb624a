/// Small helpers for writing SQL text. Identifiers come from the model (code), never from input;
/// values are always bound parameters.
enum SQL {
    static func quote(_ identifier: String) -> String {
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacing("\"", with: "\"\"") + "\""
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
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

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
