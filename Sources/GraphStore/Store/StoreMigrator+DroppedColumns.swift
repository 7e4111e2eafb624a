/// Attributes a newer model no longer declares: their columns leave the table in the migration's
/// transaction (`ALTER TABLE ... DROP COLUMN`, which rewrites the table as SQLite's rebuild recipe
/// would), so that declaring the attribute again later adds a fresh column.
extension StoreMigrator {
    /// A dropped to-one would need the table rebuilt with foreign keys off, which cannot happen
    /// inside the migration's transaction: refused, with the file left as it was.
    func checkDroppedColumns(of table: SchemaSnapshot.Table, from old: SchemaSnapshot.Table) throws {
        for column in old.columns where column.references != nil && !table.columns.contains(where: { $0.name == column.name }) {
            throw GraphStoreError.incompatibleStore(
                "the to-one relationship \(table.name).\(column.name) was removed; lightweight migration cannot drop a foreign key column")
        }
    }

    /// Drops the columns of attributes `table` no longer declares, after their indexes (SQLite
    /// refuses to drop an indexed column; the model's own indexes on them are gone already).
    func dropColumns(of table: SchemaSnapshot.Table, from old: SchemaSnapshot.Table, _ db: any SchemaConnection) throws {
        for column in old.columns where !table.columns.contains(where: { $0.name == column.name }) {
            for columns in old.uniqueConstraints + old.indexes where columns.contains(column.name) {
                try db.execute(old.dropIndexSQL(columns, unique: true))
                try db.execute(old.dropIndexSQL(columns, unique: false))
            }
            try db.execute("ALTER TABLE \(SQL.quote(table.name)) DROP COLUMN \(SQL.quote(column.name))")
        }
    }

    /// A column the file holds although the stored model does not declare it: an attribute dropped
    /// before GraphStore removed dropped columns. Its values are stale; the attribute declared
    /// again starts from its default, as a new attribute does.
    func dropLeftover(_ column: String, of table: String, _ db: any SchemaConnection) throws {
        guard try db.columnNames(in: table).contains(column) else { return }
        try db.execute("ALTER TABLE \(SQL.quote(table)) DROP COLUMN \(SQL.quote(column))")
    }
}
