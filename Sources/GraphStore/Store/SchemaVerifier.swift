internal import GRDB

/// Compares the schema really in the file (SQLite's own catalog) with the snapshot stored beside it.
///
/// The snapshot says what GraphStore created; a hand-altered file can hold something else (a dropped
/// unique index lets an import insert duplicates, since inserts trust the index). Four catalog
/// queries whatever the model's size, so every open can afford it. User-added plain indexes and
/// other tables are allowed; everything the model relies on must be there exactly.
struct SchemaVerifier {
    let db: Database

    /// Throws `incompatibleStore` naming every difference, or returns.
    func verify(_ snapshot: SchemaSnapshot) throws {
        let file = try FileSchema(db)
        let differences = snapshot.tables.flatMap { file.differences($0) }
        guard differences.isEmpty else {
            throw GraphStoreError.incompatibleStore("the file's schema differs from its model: " + differences.joined(separator: "; "))
        }
    }
}

/// The file's tables, columns, indexes and foreign keys, read from SQLite's pragmas by table.
private struct FileSchema {
    var strict: [String: Bool] = [:]
    var columns: [String: [Row]] = [:]
    var indexes: [String: [Row]] = [:]
    var foreignKeys: [String: [Row]] = [:]

    init(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table'") {
            strict[row[0]] = row[1]
        }
        let tables = "FROM sqlite_master m JOIN"
        columns = try Self.byTable(db, #"SELECT m.name, p.name, p.type, p."notnull", p.pk, p.dflt_value IS NULL \#(tables) pragma_table_info(m.name) p WHERE m.type = 'table'"#)
        indexes = try Self.byTable(db, #"""
            SELECT m.name, il.name, il."unique", il.partial, ii.name \#(tables) pragma_index_list(m.name) il
            JOIN pragma_index_info(il.name) ii WHERE m.type = 'table' ORDER BY m.name, il.name, ii.seqno
            """#)
        foreignKeys = try Self.byTable(db, #"SELECT m.name, f."from", f."table", f."to", f.on_delete \#(tables) pragma_foreign_key_list(m.name) f WHERE m.type = 'table'"#)
    }

    /// Rows grouped by their first column, the table (the other columns follow it from index 1).
    private static func byTable(_ db: Database, _ sql: String) throws -> [String: [Row]] {
        Dictionary(grouping: try Row.fetchAll(db, sql: sql)) { $0[0] as String }
    }

    func differences(_ table: SchemaSnapshot.Table) -> [String] {
        guard let isStrict = strict[table.name] else { return ["table \(table.name) is missing"] }
        let strictness = isStrict ? [] : ["table \(table.name) is not STRICT"]
        return strictness + columnDifferences(table) + indexDifferences(table) + foreignKeyDifferences(table)
    }

    private func columnDifferences(_ table: SchemaSnapshot.Table) -> [String] {
        let rows = columns[table.name] ?? []
        var found: [String: String] = [:]
        var required: Set<String> = []
        for row in rows {
            found[row[1]] = Self.definition(type: row[2], notNull: row[3], primaryKey: row[4])
            if row[3] && row[5] { required.insert(row[1]) }
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
    private func indexDifferences(_ table: SchemaSnapshot.Table) -> [String] {
        let rows = self.indexes[table.name] ?? []
        var indexes: [String: (unique: Bool, columns: [String])] = [:]
        for row in rows {
            let name: String = row[1]
            // A partial index enforces uniqueness only on some rows: not the model's constraint.
            let isUnique = (row[2] as Bool) && !(row[3] as Bool)
            indexes[name, default: (isUnique, [])].columns.append(row[4] ?? "")
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

    private func foreignKeyDifferences(_ table: SchemaSnapshot.Table) -> [String] {
        let rows = foreignKeys[table.name] ?? []
        var found: [String: String] = [:]
        for row in rows {
            found[row[1]] = "\(row[2] as String)(\(row[3] as String? ?? "id")) ON DELETE \(row[4] as String)"
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
