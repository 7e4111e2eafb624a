internal import GRDBSQLite

/// Whether a file holds a SQLite store, found without writing to it.
enum SQLiteStoreProbe {
    /// False for a missing or empty file and for a SQLite database without a single table (neither
    /// is a store: opening one would write a schema into it); true otherwise, a file that is not a
    /// database included (opening it reports what is wrong). A database busy with a writer counts.
    static func holdsStore(_ path: String) -> Bool {
        guard let size = FileManagerProbe.size(path), size > 0 else { return false }
        let leftovers = WALLeftovers(path: path)
        var connection: OpaquePointer?
        defer {
            sqlite3_close(connection)
            leftovers.remove()
        }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return true }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, "SELECT count(*) FROM sqlite_master", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { return true }
        return sqlite3_column_int64(statement, 0) > 0
    }
}
