/// Persistent history's statements on PostgreSQL; a batch's size is what history reads rows before.
extension PostgresStoreConnection: HistoryStorage {
    var historyDialect: SQLDialect { .postgres }

    var batchFlushSize: Int? { PostgresBatch.flushSize }

    func historyRows(_ sql: String, _ values: [StoredValue]) throws -> [[StoredValue]] {
        let result = try run(sql, values)
        return (0..<result.rowCount).map { row in (0..<result.columnCount).map { result.value(row, $0) } }
    }

    func historyExecute(_ sql: String, _ values: [StoredValue]) throws {
        try run(sql, values)
    }

}
