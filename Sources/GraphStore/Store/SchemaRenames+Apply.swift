/// Applying a ``SchemaRenames/Resolution``: to the stored snapshot (what the store holds after the
/// renames) and to the store itself, in the migration's transaction.
extension SchemaRenames.Resolution {
    var isEmpty: Bool { tables.isEmpty }

    /// `stored` as it reads once the renames ran: tables, columns, constraints and foreign keys renamed.
    func applied(to stored: SchemaSnapshot) -> SchemaSnapshot {
        let tableNames = Dictionary(uniqueKeysWithValues: tables.map { ($0.stored.name, $0.rename.name) })
        var snapshot = stored
        snapshot.tables = stored.tables.map { table in
            var table = table
            if let (_, rename) = tables.first(where: { $0.stored.name == table.name }) {
                let columnNames = Dictionary(uniqueKeysWithValues: rename.columns.map { ($1, $0) })
                let renamed = { (name: String) in columnNames[name] ?? name }
                table.name = rename.name
                for index in table.columns.indices { table.columns[index].name = renamed(table.columns[index].name) }
                table.uniqueConstraints = table.uniqueConstraints.map { $0.map(renamed) }
                table.indexes = table.indexes.map { $0.map(renamed) }
            }
            for index in table.columns.indices {
                if let target = table.columns[index].references { table.columns[index].references = tableNames[target] ?? target }
            }
            return table
        }
        return snapshot
    }

    /// Renames the tables and columns. Index names follow their table's and columns' names, so each
    /// renamed table's indexes are dropped first and created again under the new names (SQLite
    /// cannot rename an index). Foreign keys follow by themselves: SQLite rewrites the references
    /// to a renamed table or column, PostgreSQL holds them by identity.
    func perform(_ db: any SchemaConnection, dropLeftover: (String, String) throws -> Void) throws {
        let renamed = applied(to: SchemaSnapshot(version: 0, tables: tables.map(\.stored)))
        for ((stored, rename), table) in zip(tables, renamed.tables) {
            let oldColumns = Set(rename.columns.values)
            let renamesIndex = { (columns: [String]) in rename.from != nil || columns.contains(where: oldColumns.contains) }
            let unique = zip(stored.uniqueConstraints, table.uniqueConstraints).filter { renamesIndex($0.0) }
            let plain = zip(stored.indexes, table.indexes).filter { renamesIndex($0.0) }
            for (columns, _) in unique { try db.execute(stored.dropIndexSQL(columns, unique: true)) }
            for (columns, _) in plain { try db.execute(stored.dropIndexSQL(columns, unique: false)) }
            if let from = rename.from {
                // A table the file holds though no stored model declares it (an older GraphStore's leftover).
                if try db.userTables().contains(rename.name) { try db.execute("DROP TABLE \(SQL.quote(rename.name))") }
                try db.execute("ALTER TABLE \(SQL.quote(from)) RENAME TO \(SQL.quote(rename.name))")
            }
            for (new, old) in rename.columns.sorted(by: { $0.key < $1.key }) {
                try dropLeftover(new, rename.name)
                try db.execute("ALTER TABLE \(SQL.quote(rename.name)) RENAME COLUMN \(SQL.quote(old)) TO \(SQL.quote(new))")
            }
            for (_, columns) in unique { try db.execute(table.createIndexSQL(columns, unique: true, db.dialect)) }
            for (_, columns) in plain { try db.execute(table.createIndexSQL(columns, unique: false, db.dialect)) }
        }
    }
}

extension SchemaSnapshot {
    init(version: Int, tables: [Table]) {
        self.version = version
        self.tables = tables
        format = Self.currentFormat
    }
}
