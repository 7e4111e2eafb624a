/// Compares the schema really in the store (its database's own catalog) with the snapshot stored beside it.
///
/// The snapshot says what GraphStore created; a hand-altered store can hold something else (a dropped
/// unique index lets an import insert duplicates, since inserts trust the index). A few catalog
/// queries whatever the model's size, so every open can afford it. User-added plain indexes and
/// other tables are allowed; everything the model relies on must be there exactly.
struct SchemaVerifier {
    let db: any SchemaConnection

    /// Throws `incompatibleStore` naming every difference, or returns the schema found. Indexes
    /// built after imports may be missing (``IndexesAfterImport``): the caller decides.
    @discardableResult
    func verify(_ snapshot: SchemaSnapshot, allowing later: IndexesAfterImport? = nil) throws -> CatalogSchema {
        let catalog = try db.catalogSchema()
        let differences = snapshot.tables.flatMap { catalog.differences($0, allowingMissing: later?.columns(of: $0.name) ?? []) }
        guard differences.isEmpty else {
            throw GraphStoreError.incompatibleStore("the store's schema differs from its model: " + differences.joined(separator: "; "))
        }
        return catalog
    }
}

/// A store's tables, columns, indexes and foreign keys as its catalog lists them, by table.
struct CatalogSchema {
    struct Column {
        var name: String
        /// The storage class's name (`INTEGER`, `REAL`, `TEXT`, `BLOB`), or what the column really is.
        var type: String
        var notNull: Bool
        var primaryKey: Bool
        var hasDefault: Bool
    }

    struct Index {
        var name: String
        /// Unique on every row (a partial unique index is not the model's constraint).
        var unique: Bool
        var columns: [String]
    }

    struct ForeignKey {
        var column: String
        var table: String
        var to: String?
        var onDelete: String
    }

    /// Table → whether its columns are typed (SQLite's STRICT; always so in PostgreSQL).
    var typed: [String: Bool] = [:]
    var columns: [String: [Column]] = [:]
    var indexes: [String: [Index]] = [:]
    var foreignKeys: [String: [ForeignKey]] = [:]
    /// The action a `.deny` key really has (PostgreSQL cannot defer `RESTRICT`: `NO ACTION` there).
    var denyAction = "RESTRICT"

    func differences(_ table: SchemaSnapshot.Table, allowingMissing later: [[String]] = []) -> [String] {
        guard let isTyped = typed[table.name] else { return ["table \(table.name) is missing"] }
        let strictness = isTyped ? [] : ["table \(table.name) is not STRICT"]
        return strictness + columnDifferences(table) + indexDifferences(table, allowingMissing: later) + foreignKeyDifferences(table)
    }

    private func columnDifferences(_ table: SchemaSnapshot.Table) -> [String] {
        var found: [String: String] = [:]
        var required: Set<String> = []
        for column in columns[table.name] ?? [] {
            found[column.name] = Self.definition(type: column.type, notNull: column.notNull, primaryKey: column.primaryKey)
            if column.notNull && !column.hasDefault && !column.primaryKey { required.insert(column.name) }
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
        if notNull && !primaryKey { text += " NOT NULL" }
        return text
    }

    /// Unique indexes must match the model's constraints exactly (as column sets: a unique index on
    /// (b, a) enforces (a, b)); plain indexes must exist; extra plain indexes are the user's.
    private func indexDifferences(_ table: SchemaSnapshot.Table, allowingMissing later: [[String]]) -> [String] {
        let indexes = self.indexes[table.name] ?? []
        let unique = Set(indexes.filter(\.unique).map { $0.columns.sorted() })
        let plain = Set(indexes.map(\.columns))
        let expectedUnique = Set(table.uniqueConstraints.map { $0.sorted() })
        var differences: [String] = []
        for columns in table.uniqueConstraints where !unique.contains(columns.sorted()) {
            differences.append("unique index on \(table.name)(\(columns.joined(separator: ", "))) is missing")
        }
        for columns in unique.subtracting(expectedUnique).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            differences.append("unique index on \(table.name)(\(columns.joined(separator: ", "))) is not in the model")
        }
        for columns in table.indexes where !plain.contains(columns) && !later.contains(columns) {
            differences.append("index on \(table.name)(\(columns.joined(separator: ", "))) is missing")
        }
        return differences
    }

    private func foreignKeyDifferences(_ table: SchemaSnapshot.Table) -> [String] {
        var found: [String: String] = [:]
        for key in foreignKeys[table.name] ?? [] {
            found[key.column] = "\(key.table)(\(key.to ?? "id")) ON DELETE \(key.onDelete)"
        }
        var differences: [String] = []
        for column in table.columns {
            guard let references = column.references else { continue }
            let action = column.onDelete == "RESTRICT" ? denyAction : column.onDelete ?? "NO ACTION"
            let expected = "\(references)(id) ON DELETE \(action)"
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
