/// Entities a newer model no longer declares: their tables leave the store in the migration's
/// transaction, as a removed attribute's column does, so that declaring the entity again later
/// creates a fresh, empty table instead of meeting the old one.
extension StoreMigrator {
    /// The stored entity tables (not join tables) the current model no longer declares.
    func removedTables(from stored: SchemaSnapshot, _ current: SchemaSnapshot) -> [SchemaSnapshot.Table] {
        stored.tables.filter { $0.isJoin != true && current.table(named: $0.name) == nil }
    }

    /// A table that stays may not refer to a removed one: its foreign keys would dangle.
    func checkRemovedTables(from stored: SchemaSnapshot, _ current: SchemaSnapshot) throws {
        let removed = Set(removedTables(from: stored, current).map(\.name))
        for table in current.tables {
            for column in table.columns {
                guard let target = column.references, removed.contains(target) else { continue }
                throw GraphStoreError.incompatibleStore(
                    "the entity \(target) was removed but \(table.name).\(column.name) still refers to it")
            }
        }
    }

    /// Drops the removed tables (after the join tables, which referred to them), each after the
    /// removed tables that refer to it: SQLite checks a dropped table's foreign keys as deletes.
    func dropRemovedTables(from stored: SchemaSnapshot, _ current: SchemaSnapshot, _ db: any SchemaConnection) throws {
        var remaining = removedTables(from: stored, current)
        while !remaining.isEmpty {
            let unreferenced = remaining.filter { table in
                !remaining.contains { other in other.name != table.name && other.columns.contains { $0.references == table.name } }
            }
            let next = unreferenced.first ?? remaining[0]  // a cycle: PostgreSQL's CASCADE drops its keys
            try dropTable(next.name, db)
            remaining.removeAll { $0.name == next.name }
        }
    }

    /// A table the file holds although the stored model does not declare it: an entity removed
    /// before GraphStore dropped removed entities' tables. Its rows are stale; the entity declared
    /// again starts empty, as a new entity does.
    func dropLeftoverTable(_ name: String, _ db: any SchemaConnection) throws {
        try dropTable(name, db)
    }

    /// Drops `name` only from the store's own schema: on PostgreSQL an unqualified `DROP TABLE`
    /// would otherwise reach a table of that name further along the search path.
    private func dropTable(_ name: String, _ db: any SchemaConnection) throws {
        guard try db.userTables().contains(name) else { return }
        try db.execute("DROP TABLE \(SQL.quote(name))" + (db.dialect == .postgres ? " CASCADE" : ""))
    }
}
