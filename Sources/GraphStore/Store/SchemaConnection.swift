/// What schema creation, verification and migration (``StoreMigrator``) need from a connection,
/// whichever database it reaches. Statements are written in SQLite's spelling (see ``SQLDialect``).
protocol SchemaConnection {
    var dialect: SQLDialect { get }
    func execute(_ sql: String, _ arguments: [StoredValue]) throws
    /// Every row `sql` returns, as stored values.
    func fetchRows(_ sql: String, _ arguments: [StoredValue]) throws -> [[StoredValue]]
    func tableExists(_ name: String) throws -> Bool
    func columnNames(in table: String) throws -> [String]
    /// The tables that are not the database's own.
    func userTables() throws -> [String]
    /// The schema really there (tables, columns, indexes, foreign keys), as the catalog tells it.
    func catalogSchema() throws -> CatalogSchema
}

extension SchemaConnection {
    func execute(_ sql: String) throws { try execute(sql, []) }

    /// The first column of the first row, as text.
    func fetchText(_ sql: String, _ arguments: [StoredValue] = []) throws -> String? {
        guard case .text(let text) = try fetchRows(sql, arguments).first?.first else { return nil }
        return text
    }
}
