internal import GRDB

/// Compares the schema really in the file (SQLite's own catalog) with the snapshot stored beside it.
///
/// The snapshot says what GraphStore created; a hand-altered file can hold something else (a dropped
/// unique index lets an import insert duplicates, since inserts trust the index). A handful of
/// `PRAGMA` reads per table, so every open can afford it. User-added plain indexes and other
/// tables are allowed; everything the model relies on must be there exactly.
struct SchemaVerifier {
    let db: Database

    /// Throws `incompatibleStore` naming every difference, or returns.
    func verify(_ snapshot: SchemaSnapshot) throws {
        let differences = try snapshot.tables.flatMap(differences)
        guard differences.isEmpty else {
            throw GraphStoreError.incompatibleStore("the file's schema differs from its model: " + differences.joined(separator: "; "))
        }
    }

    private func differences(_ table: SchemaSnapshot.Table) throws -> [String] {
        let isStrict = try Bool.fetchOne(db, sql: "SELECT strict FROM pragma_table_list WHERE name = ? AND schema = 'main'", arguments: [table.name])
        guard let isStrict else { return ["table \(table.name) is missing"] }
        let strictness = isStrict ? [] : ["table \(table.name) is not STRICT"]
        return try strictness + columnDifferences(table) + indexDifferences(table) + foreignKeyDifferences(table)
    }

    private func columnDifferences(_ table: SchemaSnapshot.Table) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: #"SELECT name, type, "notnull", pk, dflt_value IS NULL FROM pragma_table_info(?)"#, arguments: [table.name])
        var found: [String: String] = [:]
        var required: Set<String> = []
        for row in rows {
            found[row[0]] = Self.definition(type: row[1], notNull: row[2], primaryKey: row[3])
            if row[2] && row[4] { required.insert(row[0]) }
        }
        var differences: [String] = []
        let expected = [("id", "INTEGER PRIMARY KEY")] + table.columns.map { column in
            (column.name, Self.definition(type: column.type.rawValue, notNull: !column.isOptional, primaryKey: false))
        }
        for (name, definition) in expected {
            guard let actual = found.removeValue(forKey: name) else { differences.append("column \(table.name).\(name) is missing"); continue }
            if actual != definition { differences.append("column \(table.name).\(name) is \(actual), the model expects \(definition)") }
        }
        // A column inserts can leave out is harmless: an attribute a former GraphStore kept when a
        // model dropped it (a migration that declares it again replaces it).
        differences += found.keys.filter(required.contains).sorted().map { "column \(table.name).\($0) is not in the model and has no default" }
        return differences
    }

    /// Without the DEFAULT: GraphStore's inserts name every column, so a column's default is used
    /// only once, by the migration that adds it (a later model may change it without rebuilding).
    private static func definition(type: String, notNull: Bool, primaryKey: Bool) -> String {
        var text = type.uppercased()
        if primaryKey { text += " PRIMARY KEY" }
        if notNull { text += " NOT NULL" }
        return text
    }

    /// Unique indexes must match the model's constraints exactly (as column sets: a unique index on
    /// (b, a) enforces (a, b)); plain indexes must exist; extra plain indexes are the user's.
    private func indexDifferences(_ table: SchemaSnapshot.Table) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT il.name, il."unique", il.partial, ii.name FROM pragma_index_list(?1) il
            JOIN pragma_index_info(il.name) ii ORDER BY il.name, ii.seqno
            """, arguments: [table.name])
        var indexes: [String: (unique: Bool, columns: [String])] = [:]
        for row in rows {
            let name: String = row[0]
            // A partial index enforces uniqueness only on some rows: not the model's constraint.
            let isUnique = (row[1] as Bool) && !(row[2] as Bool)
            indexes[name, default: (isUnique, [])].columns.append(row[3] ?? "")
        }
        let unique = Set(indexes.values.filter(\.unique).map { $0.columns.sorted() })
        let plain = Set(indexes.values.map(\.columns))
        let expectedUnique = Set(table.uniqueConstraints.map { $0.sorted() })
        var differences: [String] = []
        for columns in table.uniqueConstraints where !unique.contains(columns.sorted()) {
            differences.append("unique index on \(table.name)(\(columns.joined(separator: ", "))) is missing")
        }
        for columns in unique.subtracting(expectedUnique).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            differences.append("unique index on \(table.name)(\(columns.joined(separator: ", "))) is not in the model")
        }
        for columns in table.indexes where !plain.contains(columns) {
            differences.append("index on \(table.name)(\(columns.joined(separator: ", "))) is missing")
        }
        return differences
    }

    private func foreignKeyDifferences(_ table: SchemaSnapshot.Table) throws -> [String] {
        let rows = try Row.fetchAll(db, sql: #"SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)"#, arguments: [table.name])
        var found: [String: String] = [:]
        for row in rows {
            found[row[0]] = "\(row[1] as String)(\(row[2] as String? ?? "id")) ON DELETE \(row[3] as String)"
        }
        var differences: [String] = []
        for column in table.columns {
            guard let references = column.references else { continue }
            let expected = "\(references)(id) ON DELETE \(column.onDelete ?? "NO ACTION")"
            guard let actual = found.removeValue(forKey: column.name) else {
                differences.append("foreign key \(table.name).\(column.name) → \(expected) is missing")
                continue
            }
            if actual != expected { differences.append("foreign key \(table.name).\(column.name) is \(actual), the model expects \(expected)") }
        }
        differences += found.keys.sorted().map { "foreign key \(table.name).\($0) is not in the model" }
        return differences
    }
}
