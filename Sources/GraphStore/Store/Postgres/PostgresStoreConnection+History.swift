/// Persistent history's statements on PostgreSQL: a transaction's changes go as one statement of
/// arrays (as a ``PostgresBatch`` does), not a round trip each.
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

    func insertHistoryChanges(_ rows: [HistoryChangeRow], token: Int64) throws {
        for chunk in rows.chunked(by: PostgresBatch.flushSize) {
            try run(HistoryTables.insertChanges, [
                .integer(token),
                PostgresBatchSQL.arrayLiteral(chunk.indices.map { .integer(Int64($0)) }),
                PostgresBatchSQL.arrayLiteral(chunk.map { .text($0.entity) }),
                PostgresBatchSQL.arrayLiteral(chunk.map { .text($0.key) }),
                PostgresBatchSQL.arrayLiteral(chunk.map { .integer(Int64($0.kind.rawValue)) }),
                PostgresBatchSQL.arrayLiteral(chunk.map { .text($0.fields) }),
            ])
        }
    }
}
