internal import GRDB

/// A GRDB connection as ``StoreMigrator`` and ``SchemaVerifier`` see it.
struct SQLiteSchemaConnection: SchemaConnection {
    let db: Database
    var dialect: SQLDialect { .sqlite }

    func execute(_ sql: String, _ arguments: [StoredValue]) throws {
        try db.execute(sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
    }

    func fetchRows(_ sql: String, _ arguments: [StoredValue]) throws -> [[StoredValue]] {
        try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue))).map { row in
            row.databaseValues.map(StoredValue.init)
        }
    }

    func tableExists(_ name: String) throws -> Bool { try db.tableExists(name) }

    func columnNames(in table: String) throws -> [String] { try db.columns(in: table).map(\.name) }

    func userTables() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    }

    /// SQLite's pragmas, one query per kind whatever the number of tables.
    func catalogSchema() throws -> CatalogSchema {
        var schema = CatalogSchema()
        for row in try Row.fetchAll(db, sql: "SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table'") {
            schema.typed[row[0]] = row[1]
        }
        let tables = "FROM sqlite_master m JOIN"
        for row in try Row.fetchAll(db, sql: #"SELECT m.name, p.name, p.type, p."notnull", p.pk, p.dflt_value IS NOT NULL \#(tables) pragma_table_info(m.name) p WHERE m.type = 'table'"#) {
            schema.columns[row[0], default: []].append(.init(name: row[1], type: row[2], notNull: row[3], primaryKey: row[4], hasDefault: row[5]))
        }
        var indexes: [String: [String: CatalogSchema.Index]] = [:]
        for row in try Row.fetchAll(db, sql: #"""
            SELECT m.name, il.name, il."unique" AND NOT il.partial, ii.name \#(tables) pragma_index_list(m.name) il
            JOIN pragma_index_info(il.name) ii WHERE m.type = 'table' ORDER BY m.name, il.name, ii.seqno
            """#) {
            indexes[row[0], default: [:]][row[1], default: .init(name: row[1], unique: row[2], columns: [])].columns.append(row[3] ?? "")
        }
        schema.indexes = indexes.mapValues { Array($0.values) }
        for row in try Row.fetchAll(db, sql: #"SELECT m.name, f."from", f."table", f."to", f.on_delete \#(tables) pragma_foreign_key_list(m.name) f WHERE m.type = 'table'"#) {
            schema.foreignKeys[row[0], default: []].append(.init(column: row[1], table: row[2], to: row[3], onDelete: row[4]))
        }
        return schema
    }
}
