extension PostgresStoreConnection {
    /// Rebuilds with `NULLS FIRST` keys the model's indexes that an earlier GraphStore made with
    /// PostgreSQL's default (`NULLS LAST`), in which none of its sorts could read them (see
    /// `SchemaSnapshot.Table.createIndexSQL`). A writable open runs it, in the schema's
    /// transaction: one catalog query when there is nothing to do, one index build each otherwise.
    func rebuildNullsLastIndexes(_ model: ManagedObjectModel) throws {
        let stale = Set(try fetchRows("""
            SELECT i.relname::text FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
            WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND NOT x.indisprimary
                AND EXISTS (SELECT 1 FROM unnest(x.indoption::int2[]) AS o(flags) WHERE o.flags & 2 = 0)
            """, []).map { $0[0].text })
        guard !stale.isEmpty else { return }
        for table in SchemaSnapshot(model: model).tables {
            let indexes = table.uniqueConstraints.map { ($0, true) } + table.indexes.map { ($0, false) }
            for (columns, unique) in indexes where stale.contains(table.indexName(columns, unique: unique)) {
                try command(table.dropIndexSQL(columns, unique: unique))
                try command(table.createIndexSQL(columns, unique: unique, .postgres))
            }
        }
    }
}
