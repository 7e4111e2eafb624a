internal import GRDB
internal import GRDBSQLite

/// Persistent history's statements on SQLite, through GRDB's statement cache.
extension SQLiteStoreConnection: HistoryStorage {
    var historyDialect: SQLDialect { .sqlite }

    func historyRows(_ sql: String, _ values: [StoredValue]) throws -> [[StoredValue]] {
        let statement = try historyStatement(sql, values)
        let width = sqlite3_column_count(statement)
        var rows: [[StoredValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else { throw historyFailure(code, sql) }
            rows.append((0..<width).map { StoredValue(column: $0, of: statement) })
        }
    }

    func historyExecute(_ sql: String, _ values: [StoredValue]) throws {
        let statement = try historyStatement(sql, values)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw historyFailure(code, sql) }
    }

    private func historyStatement(_ sql: String, _ values: [StoredValue]) throws -> OpaquePointer {
        let statement = try db.cachedStatement(sql: sql).sqliteStatement
        sqlite3_reset(statement)
        for (index, value) in values.enumerated() {
            let code = value.bind(to: statement, at: Int32(index + 1))
            guard code == SQLITE_OK else { throw historyFailure(code, sql) }
        }
        return statement
    }

    private func historyFailure(_ code: Int32, _ sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: db.sqliteConnection.map { String(cString: sqlite3_errmsg($0)) }, sql: sql)
    }
}
