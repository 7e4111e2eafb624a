internal import GRDBSQLite

/// The `-wal` and `-shm` files a read-only connection creates beside a WAL database and cannot
/// remove when it closes (only a connection that may checkpoint does). A refused open must leave
/// the directory as it found it.
struct WALLeftovers {
    let path: String
    /// Whether either file was there before: then they belong to someone else.
    private let existed: Bool

    init(path: String) {
        self.path = path
        existed = FileManagerProbe.fileExists(path + "-wal") || FileManagerProbe.fileExists(path + "-shm")
    }

    /// Removes them as SQLite does: the last read-write connection to close checkpoints the empty
    /// log (writing nothing to the database) and deletes both. If another connection opened the
    /// file meanwhile, SQLite leaves them to it. Call after the read-only connection is closed.
    func remove() {
        guard !existed, FileManagerProbe.fileExists(path + "-wal") || FileManagerProbe.fileExists(path + "-shm") else { return }
        var connection: OpaquePointer?
        defer { sqlite3_close(connection) }
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return }
        _ = sqlite3_exec(connection, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
    }
}
