/// Session advisory locks: two 32-bit keys, the name's hash and the schema's, so that catalogs in
/// different schemas of one database lock apart.
extension PostgresStore {
    private static let key = "hashtext($1), hashtext(current_schema())"

    func lock(named name: String, wait: Bool) throws(GraphStoreError) -> StoreLock? {
        try lockedConnection(named: name, wait: wait).map { StoreLock(connection: $0, store: self, name: name) }
    }

    /// A new connection holding the lock `name`; nil when another process holds it and `wait` is false.
    func lockedConnection(named name: String, wait: Bool) throws(GraphStoreError) -> PostgresConnection? {
        try onNewConnection { connection throws(PostgresError) in
            let function = wait ? "pg_advisory_lock" : "pg_try_advisory_lock"
            let result = try connection.query("SELECT \(function)(\(Self.key))::text", [.text(name)])
            return wait || result.value(0, 0) == .text("true") ? connection : nil
        }
    }

    /// Waits at most `timeout` on one connection (the server's `lock_timeout`), instead of a
    /// connection per try.
    func lock(named name: String, waitingAtMost timeout: Duration) throws(GraphStoreError) -> StoreLock? {
        try onNewConnection { connection throws(PostgresError) in
            // 0 would mean no limit: a wait of less than a millisecond is one.
            let (seconds, attoseconds) = timeout.components
            let milliseconds = max(1, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            _ = try connection.execute("SET lock_timeout = \(milliseconds)")
            do throws(PostgresError) {
                _ = try connection.query("SELECT pg_advisory_lock(\(Self.key))::text", [.text(name)])
            } catch where error.sqlState == "55P03" {
                return nil
            }
            _ = try connection.execute("SET lock_timeout = 0")
            return StoreLock(connection: connection, store: self, name: name)
        }
    }

    func isLocked(named name: String) throws(GraphStoreError) -> Bool {
        try onNewConnection { connection throws(PostgresError) in
            let result = try connection.query("""
                SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND classid = hashtext($1)::oid AND objid = hashtext(current_schema())::oid AND objsubid = 2
                """, [.text(name)])
            return result.integer(0, 0) > 0
        }
    }

    /// `body` on a connection of its own (a lock lives as long as its connection); a failure is
    /// the store being unavailable.
    private func onNewConnection<R>(_ body: (PostgresConnection) throws(PostgresError) -> R) throws(GraphStoreError) -> R {
        do {
            return try body(try PostgresConnection(conninfo: conninfo))
        } catch {
            throw .storeUnavailable(path: description, reason: PostgresSQL.connectionMessage(error.message, conninfo: conninfo))
        }
    }

    /// Whether the connection's current schema holds GraphStore's metadata table.
    static func exists(conninfo: String) throws(GraphStoreError) -> Bool {
        do {
            let connection = try PostgresConnection(conninfo: conninfo)
            let result = try connection.query(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?", [.text(StoreMigrator.metadataTable)])
            return result.integer(0, 0) > 0
        } catch {
            throw .storeUnavailable(path: PostgresSQL.redacted(conninfo), reason: PostgresSQL.connectionMessage(error.message, conninfo: conninfo))
        }
    }
}
