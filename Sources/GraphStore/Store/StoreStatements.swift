/// The statements behind ``StoreReader``'s queries, built once for both stores: SQLite's spelling,
/// with the dialect's own pieces (``SQLDialect``) where PostgreSQL differs.
struct StoreStatements {
    let model: ManagedObjectModel
    let dialect: SQLDialect
    let entities: [String: EntitySQL]

    init(model: ManagedObjectModel, dialect: SQLDialect) {
        self.model = model
        self.dialect = dialect
        entities = EntitySQL.all(model)
    }

    func sql(_ entity: EntityDescription) -> EntitySQL { entities[entity.name] ?? EntitySQL(entity) }

    /// A query's SELECT and its arguments: `id`, then the asked columns (every column when nil).
    func select(_ query: StoreQuery, _ entity: EntityDescription) -> (String, [StoredValue]) {
        var compiler = SQLCompiler(model: model, dialect: dialect)
        var sql = query.columns.map { "SELECT " + (["id"] + $0).map(SQL.quote).joined(separator: ", ") + " FROM " + SQL.quote(entity.name) }
            ?? self.sql(entity).select
        if let predicate = query.predicate { sql += " WHERE " + compiler.whereClause(predicate) }
        // Objects come back in id order when no sort is asked for; column reads (lookups) in
        // whatever order the database finds them: sorting a page's looked-up rows was 4% of a re-import.
        if !query.sortBy.isEmpty || query.columns == nil { sql += SQLCompiler.orderBy(query.sortBy, dialect: dialect) }
        let window = dialect.limit(query.limit, offset: query.offset)
        return (sql + window.sql, compiler.arguments + window.arguments)
    }

    /// An import's lookup on SQLite: the keys, bound as one JSON array, walked by `json_each` and
    /// joined to the table through its unique index; each found row is led by its key's position.
    /// (SQLite probes the index once per key, where `IN` first sorts the keys into a temporary
    /// index: a third less work; one parameter binds faster than 500; and the position saves
    /// hashing each row's key again.)
    static func lookUp(_ entity: String, keyColumn: String, columns: [String]) -> String {
        let table = SQL.quote(entity)
        return "SELECT \"graphstore_keys\".\"key\", " + (["id"] + columns).map { table + "." + SQL.quote($0) }.joined(separator: ", ")
            + " FROM json_each(?) AS \"graphstore_keys\" CROSS JOIN " + table
            + " ON " + table + "." + SQL.quote(keyColumn) + " = \"graphstore_keys\".\"value\""
    }

    func count(_ query: StoreQuery) -> (String, [StoredValue]) {
        var compiler = SQLCompiler(model: model, dialect: dialect)
        var sql = "SELECT count(*) FROM \(SQL.quote(query.entity))"
        if let predicate = query.predicate { sql += " WHERE " + compiler.whereClause(predicate) }
        return (sql, compiler.arguments)
    }

    static func groupCounts(entity: String, column: String) -> String {
        "SELECT \(SQL.quote(column)), count(*) FROM \(SQL.quote(entity)) WHERE \(SQL.quote(column)) IS NOT NULL GROUP BY 1"
    }

    /// ``groupCounts(entity:column:)`` for `count` owners: bound one by one on SQLite, as one
    /// array joined as a set on PostgreSQL.
    static func groupCounts(entity: String, column: String, owners count: Int, dialect: SQLDialect) -> String {
        let owners = dialect == .postgres ? "SELECT unnest(CAST(? AS bigint[]))" : SQL.placeholders(count)
        return "SELECT \(SQL.quote(column)), count(*) FROM \(SQL.quote(entity)) WHERE \(SQL.quote(column)) IN (\(owners)) GROUP BY 1"
    }

    static func ownersWithoutMembers(owner: String, count: Int, member: String, column: String) -> String {
        "SELECT \"id\" FROM \(SQL.quote(owner)) WHERE \"id\" IN (\(SQL.placeholders(count))) "
            + "AND NOT EXISTS (SELECT 1 FROM \(SQL.quote(member)) WHERE \(SQL.quote(column)) = \(SQL.quote(owner)).\"id\")"
    }

    func rows(of entity: EntityDescription, count: Int) -> String {
        sql(entity).select + " WHERE \"id\" IN (\(SQL.placeholders(count)))"
    }

    /// Rows whose `columns` equal one of `keys`, in chunks; each chunk padded (with its last key)
    /// to a bucket size, so chunks of similar size share a statement.
    func rows(of entity: EntityDescription, columns: [String], matching keys: [[StoredValue]]) -> [(String, [StoredValue])] {
        let perKey = max(1, columns.count)
        return keys.chunked(by: max(1, 512 / perKey)).map { chunk in
            let count = SQL.bucket(chunk.count)
            let condition = if columns.count == 1 {
                "\(SQL.quote(columns[0])) IN (\(SQL.placeholders(count)))"
            } else {
                "(\(columns.map(SQL.quote).joined(separator: ", "))) IN (VALUES "
                    + Array(repeating: "(\(SQL.placeholders(perKey)))", count: count).joined(separator: ", ") + ")"
            }
            let arguments = chunk.flatMap { $0 } + repeatElement(chunk.last ?? [], count: count - chunk.count).joined()
            return (sql(entity).select + " WHERE " + condition, arguments)
        }
    }
}

extension Array {
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
