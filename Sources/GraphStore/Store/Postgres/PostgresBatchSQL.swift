/// The set-based statements of a ``PostgresBatch``: every column bound as one array parameter
/// (a PostgreSQL array literal, cast to the column's type) and joined row by row with `unnest`.
enum PostgresBatchSQL {
    /// `INSERT INTO t ("id", columns…) SELECT * FROM unnest(?::bigint[], ?::T[], …)`.
    static func insert(_ entity: EntityDescription) -> String {
        let columns = ["id"] + entity.columns
        return "INSERT INTO \(SQL.quote(entity.name)) (\(columns.map(SQL.quote).joined(separator: ", "))) SELECT * FROM "
            + unnest(["bigint"] + entity.columns.map { arrayType(entity, $0) })
    }

    /// `UPDATE t SET c = v.c, … FROM unnest(?::bigint[], ?::T[], …) AS v("id", c, …) WHERE t."id" = v."id"`.
    static func update(_ entity: EntityDescription, columns: [String]) -> String {
        let table = SQL.quote(entity.name)
        let names = (["id"] + columns).map(SQL.quote).joined(separator: ", ")
        return "UPDATE \(table) SET " + columns.map { "\(SQL.quote($0)) = \"graphstore_rows\".\(SQL.quote($0))" }.joined(separator: ", ")
            + " FROM " + unnest(["bigint"] + columns.map { arrayType(entity, $0) }) + " AS \"graphstore_rows\"(\(names))"
            + " WHERE \(table).\"id\" = \"graphstore_rows\".\"id\""
    }

    /// `DELETE FROM t WHERE "id" = ANY(?::bigint[])`.
    static func delete(_ entity: EntityDescription) -> String {
        "DELETE FROM \(SQL.quote(entity.name)) WHERE \"id\" = ANY(?::bigint[])"
    }

    /// `count` values of the identity sequence of `entity`'s table: its name is the first argument.
    /// The sequence is looked up once (`OFFSET 0` keeps the subquery from being inlined): looked up
    /// per row, it cost 3 µs a row, 7 times the `nextval` itself (issue 24).
    static let reserveIDs = "SELECT nextval(\"graphstore_sequence\".\"id\") FROM (SELECT pg_get_serial_sequence(?, 'id')::regclass AS \"id\" "
        + "OFFSET 0) AS \"graphstore_sequence\", generate_series(1, ?)"

    private static func unnest(_ types: [String]) -> String {
        "unnest(" + types.map { "?::\($0)[]" }.joined(separator: ", ") + ")"
    }

    /// The element type of a column's array: its storage class's PostgreSQL type; bigint for a key.
    private static func arrayType(_ entity: EntityDescription, _ column: String) -> String {
        let storage = entity.storedAttributes.first { $0.name == column }?.storageType ?? .integer
        return switch storage {
        case .integer: "bigint"
        case .real: "double precision"
        case .text: "text"
        case .blob: "bytea"
        }
    }

    /// One column's values as a PostgreSQL array literal: NULL unquoted, every other element
    /// quoted with `"` and `\` escaped (so the text "NULL" stays text).
    static func arrayLiteral(_ values: some Sequence<StoredValue>) -> StoredValue {
        .text(arrayText(values))
    }

    /// ``arrayLiteral(_:)``'s text.
    static func arrayText(_ values: some Sequence<StoredValue>) -> String {
        // Built as UTF-8 bytes: appending scalar by scalar to a String was a fifth of a PostgreSQL
        // import's client CPU (issue 24).
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for value in values {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            guard var text = value.postgresText else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            text.withUTF8 { utf8 in
                guard utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                    return bytes.append(contentsOf: utf8)
                }
                for byte in utf8 {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
