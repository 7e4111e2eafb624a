import Synchronization

/// Session advisory locks on the database `conninfo` names: two 32-bit keys, the name's hash and
/// the schema's, so that stores in different schemas of one database lock apart.
struct AdvisoryLocks: Sendable {
    let conninfo: String
    private static let key = "hashtext($1), hashtext(current_schema())"

    func lock(named name: String, _ waiting: LockWait) throws(GraphStoreError) -> StoreLock? {
        switch waiting {
        case .no: try lockedConnection(named: name, wait: false).map { StoreLock(held($0, name)) }
        case .indefinitely: try lockedConnection(named: name, wait: true).map { StoreLock(held($0, name)) }
        case .atMost(let timeout): try lock(named: name, waitingAtMost: timeout)
        }
    }

    private func held(_ connection: PostgresConnection, _ name: String) -> AdvisoryLock {
        AdvisoryLock(connection: connection, locks: self, name: name)
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
    private func lock(named name: String, waitingAtMost timeout: Duration) throws(GraphStoreError) -> StoreLock? {
        try onNewConnection { connection throws(PostgresError) in
            // 0 would mean no limit: a wait of less than a millisecond is one.
            let (seconds, attoseconds) = timeout.components
            let milliseconds = max(1, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            _ = try connection.execute("SET lock_timeout = \(milliseconds)")
            do throws(PostgresError) {
                _ = try connection.query("SELECT pg_advisory_lock(\(Self.key))::text", [.text(name)])
            } catch where error.kind == .busy {
                return nil
            }
            _ = try connection.execute("SET lock_timeout = 0")
            return StoreLock(held(connection, name))
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
            throw error.unavailable(PostgresSQL.redacted(conninfo), conninfo: conninfo)
        }
    }
}

extension PostgresStore {
    /// Whether the connection's current schema holds GraphStore's metadata table. The connection
    /// is kept for the store opened next on the same database (``spare(for:)``): a command that
    /// asks, then opens, pays one connection, not two (each a TLS and SCRAM handshake).
    static func exists(conninfo: String) throws(GraphStoreError) -> Bool {
        do {
            let connection = try PostgresConnection(conninfo: conninfo)
            let result = try connection.query(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?", [.text(StoreMigrator.metadataTable)])
            if connection.isReusable { spares.withLock { $0[conninfo] = connection } }
            return result.integer(0, 0) > 0
        } catch {
            throw error.unavailable(PostgresSQL.redacted(conninfo), conninfo: conninfo)
        }
    }
}

extension PostgresStore {
    /// Connections ``exists(conninfo:)`` made, by conninfo, until a store on that database takes one.
    private static let spares = Mutex<[String: PostgresConnection]>([:])

    /// The connection a probe of `conninfo` left, if any (taken: it serves one store).
    static func spare(for conninfo: String) -> PostgresConnection? {
        spares.withLock { $0.removeValue(forKey: conninfo) }
    }
}
