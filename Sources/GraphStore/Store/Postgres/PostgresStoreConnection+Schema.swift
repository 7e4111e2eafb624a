/// A PostgreSQL connection as ``StoreMigrator`` and ``SchemaVerifier`` see it: the current schema
/// (`search_path`'s first) is the store.
extension PostgresStoreConnection: SchemaConnection {
    var dialect: SQLDialect { .postgres }

    func execute(_ sql: String, _ arguments: [StoredValue]) throws {
        if arguments.isEmpty { try command(sql) } else { try run(sql, arguments) }
    }

    func fetchRows(_ sql: String, _ arguments: [StoredValue]) throws -> [[StoredValue]] {
        let result = try run(sql, arguments)
        return (0..<result.rowCount).map { row in (0..<result.columnCount).map { result.value(row, $0) } }
    }

    func tableExists(_ name: String) throws -> Bool {
        try !fetchRows("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?", [.text(name)]).isEmpty
    }

    func columnNames(in table: String) throws -> [String] {
        try fetchRows("SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?",
                      [.text(table)]).map { $0[0].text }
    }

    func userTables() throws -> [String] {
        try fetchRows("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()", []).map { $0[0].text }
    }

    /// PostgreSQL's catalog, in three queries. Types read back as the storage classes they hold
    /// (`bigint` is INTEGER); a text column that is not `COLLATE "C"` shows as what it is.
    func catalogSchema() throws -> CatalogSchema {
        var schema = CatalogSchema()
        schema.denyAction = "NO ACTION"
        let columns = try fetchRows("""
            SELECT c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                coalesce(co.collname::text, ''), a.atthasdef OR a.attidentity <> '', a.attidentity <> ''
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
            LEFT JOIN pg_collation co ON co.oid = a.attcollation
            WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
            """, [])
        for row in columns {
            schema.typed[row[0].text] = true
            schema.columns[row[0].text, default: []].append(.init(
                name: row[1].text, type: Self.storageType(row[2].text, collation: row[4].text), notNull: row[3] == .integer(1),
                primaryKey: row[6] == .integer(1), hasDefault: row[5] == .integer(1)))
        }
        for row in try fetchRows("""
            SELECT t.relname::text, i.relname::text, x.indisunique AND x.indpred IS NULL, a.attname::text
            FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
            JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) ON TRUE
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
            WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND NOT x.indisprimary ORDER BY 1, 2, k.n
            """, []) {
            var indexes = schema.indexes[row[0].text, default: []]
            if indexes.last?.name == row[1].text { indexes[indexes.count - 1].columns.append(row[3].text) }
            else { indexes.append(.init(name: row[1].text, unique: row[2] == .integer(1), columns: [row[3].text])) }
            schema.indexes[row[0].text] = indexes
        }
        for row in try fetchRows("""
            SELECT t.relname::text, a.attname::text, r.relname::text, ra.attname::text,
                CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'r' THEN 'RESTRICT'
                    WHEN 'd' THEN 'SET DEFAULT' ELSE 'NO ACTION' END
            FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = c.conkey[1]
            JOIN pg_attribute ra ON ra.attrelid = r.oid AND ra.attnum = c.confkey[1]
            WHERE c.contype = 'f' AND t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
            """, []) {
            schema.foreignKeys[row[0].text, default: []].append(.init(column: row[1].text, table: row[2].text, to: row[3].text, onDelete: row[4].text))
        }
        return schema
    }

    private static func storageType(_ type: String, collation: String) -> String {
        switch type {
        case "bigint": "INTEGER"
        case "double precision": "REAL"
        case "bytea": "BLOB"
        case "text" where collation == "C": "TEXT"
        case "text": "TEXT COLLATE \(collation)"
        default: type
        }
    }
}
