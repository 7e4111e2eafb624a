/// Many-to-many relationships a newer model no longer declares: their join tables are dropped in
/// the migration's transaction, links and all (Core Data's lightweight migration removes a
/// relationship the same way), so that declaring the pair again later starts with an empty table.
/// (A new pair's join table is created like a new entity's table.)
extension StoreMigrator {
    func dropJoinTables(removedFrom stored: SchemaSnapshot, _ current: SchemaSnapshot, _ db: any SchemaConnection) throws {
        for table in stored.tables where table.isJoin == true && current.table(named: table.name) == nil {
            try db.execute("DROP TABLE IF EXISTS \(SQL.quote(table.name))")
        }
    }
}
