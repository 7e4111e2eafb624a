/// A SQLite query on one long list of keys, `column IN (v1, …, vN)` and nothing else, joined to
/// the table instead: the keys bound as one JSON array, walked by `json_each`, each probing the
/// column's index. An `IN` list of N values is N parameters to parse and bind and a temporary
/// index to build before the first row (24,000 ids: 0.2 G instructions however few rows match);
/// the join costs one index probe per key (issue 24: fetching the photos a delete names).
extension StoreStatements {
    /// Shorter lists stay `IN` lists: as cheap, and their statements are shared (``SQL/bucket(_:)``).
    static let keyJoinMinimum = 64

    /// The SELECT of ``select(_:_:)`` as a join, or nil when `query` is not one list of at least
    /// ``keyJoinMinimum`` integers or texts without a window or a sort. Rows come in key order, and
    /// once per key: the caller keeps each row once (``uniqueRows(_:)``), as `IN` matches it once,
    /// and orders objects by id.
    static func selectJoiningKeys(_ query: StoreQuery, _ entity: EntityDescription) -> (String, [StoredValue])? {
        guard case .isIn(let column, let values)? = query.predicate, values.count >= keyJoinMinimum,
            query.sortBy.isEmpty, query.limit == nil, query.offset == nil,
            !values.contains(.null), let json = StoredValue.jsonArray(values)
        else { return nil }
        let table = SQL.quote(entity.name)
        // The keys' subquery names one column no table has, so every other name stays the table's.
        let sql = "SELECT " + (["id"] + (query.columns ?? entity.columns)).map { table + "." + SQL.quote($0) }.joined(separator: ", ")
            + " FROM (SELECT \"value\" AS \"graphstore_key\" FROM json_each(?)) AS \"graphstore_keys\" CROSS JOIN " + table
            + " ON " + table + "." + SQL.quote(column) + " = \"graphstore_keys\".\"graphstore_key\""
        return (sql, [.text(json)])
    }
}

extension Array where Element == StoredRow {
    /// The rows, each row id once (a key listed twice joins its row twice), in their order.
    func uniqueRows() -> [StoredRow] {
        var seen = Set<Int64>(minimumCapacity: count)
        return filter { seen.insert($0.rowID).inserted }
    }
}
