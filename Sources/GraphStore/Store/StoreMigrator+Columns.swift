/// The columns and indexes a lightweight migration adds or drops, table by table.
extension StoreMigrator {
    func migrateColumns(of table: SchemaSnapshot.Table, from old: SchemaSnapshot.Table, _ db: any SchemaConnection) throws {
        for column in table.columns {
            if let existing = old.columns.first(where: { $0.name == column.name }) {
                try Self.checkUnchanged(existing, column, in: table.name)
                continue
            }
            guard column.isOptional || column.defaultValue != nil else {
                throw GraphStoreError.incompatibleStore("new attribute \(table.name).\(column.name) is neither optional nor defaulted")
            }
            try dropLeftover(column.name, of: table.name, db)
            try db.execute("ALTER TABLE \(SQL.quote(table.name)) ADD COLUMN \(column.definition(db.dialect))")
        }
    }

    func migrateIndexes(of table: SchemaSnapshot.Table, from old: SchemaSnapshot.Table, _ db: any SchemaConnection) throws {
        for columns in table.uniqueConstraints where !old.uniqueConstraints.contains(columns) {
            try checkNoDuplicates(table.name, columns, db)
            try db.execute(table.createIndexSQL(columns, unique: true, db.dialect))
        }
        for columns in old.uniqueConstraints where !table.uniqueConstraints.contains(columns) {
            try db.execute(table.dropIndexSQL(columns, unique: true))
        }
        for columns in table.indexes where !old.indexes.contains(columns) {
            try db.execute(table.createIndexSQL(columns, unique: false, db.dialect))
        }
        for columns in old.indexes where !table.indexes.contains(columns) {
            try db.execute(table.dropIndexSQL(columns, unique: false))
        }
    }
}
