internal import GRDBSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The SQLite store's ``HistorySignal``: a read-only connection of its own asks `PRAGMA
/// data_version` (which changes when another connection commits to the file) every `interval`.
final class SQLiteHistoryPoller: HistorySignal {
    private let path: String
    private let interval: Duration
    private var connection: OpaquePointer?
    private var version: Int64 = 0
    private var nextLook = ContinuousClock.now

    init(path: String, interval: Duration) throws {
        (self.path, self.interval) = (path, interval)
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw failure() }
        version = try dataVersion()
        nextLook = .now + interval
    }

    deinit { sqlite3_close(connection) }

    func wait(after token: HistoryToken, until deadline: ContinuousClock.Instant, _ isCancelled: () -> Bool) throws -> Bool {
        while !isCancelled(), let slice = Self.slice(until: deadline, or: nextLook) {
            if ContinuousClock.now >= nextLook {
                nextLook = .now + interval
                let current = try dataVersion()
                if current != version {
                    version = current
                    return true
                }
                continue
            }
            usleep(UInt32(slice.milliseconds) * 1000)
        }
        return false
    }

    private func dataVersion() throws -> Int64 {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "PRAGMA data_version", -1, &statement, nil) == SQLITE_OK else { throw failure() }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure() }
        return sqlite3_column_int64(statement, 0)
    }

    private func failure() -> GraphStoreError {
        .readFailed(StoreFailure(kind: .other, message: connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"))
    }
}
