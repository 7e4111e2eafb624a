/// A named lock that every process using one PostgreSQL store shares: a session advisory lock,
/// keyed by the name and the store's schema, held on a connection of its own.
///
/// It is released by ``release()``, when the lock is deinitialized, or when its connection ends:
/// a process that dies (even by SIGKILL, or a host that loses the network) frees it with its
/// connection, so a lock is never left behind.
public final class StoreLock: Sendable {
    private let connection: PostgresConnection

    init(connection: PostgresConnection) { self.connection = connection }

    /// Releases the lock now (idempotent; closing the connection would too).
    public func release() {
        _ = try? connection.execute("SELECT pg_advisory_unlock_all()")
    }

    deinit { release() }
}

extension PersistentContainer {
    /// Takes the lock `name` on this store (PostgreSQL only): waits for it when `wait` is true,
    /// else returns nil when another process holds it.
    /// - Throws: `incompatibleStore` for a SQLite store (lock its file instead), `storeUnavailable`.
    public func lock(named name: String, wait: Bool) throws(GraphStoreError) -> StoreLock? {
        try postgresStore().lock(named: name, wait: wait)
    }

    /// Takes the lock `name` (PostgreSQL only), waiting at most `timeout` for another process to
    /// release it: nil when it did not in time. One connection waits; nothing polls.
    /// - Throws: `incompatibleStore` for a SQLite store, `storeUnavailable`.
    public func lock(named name: String, waitingAtMost timeout: Duration) throws(GraphStoreError) -> StoreLock? {
        try postgresStore().lock(named: name, waitingAtMost: timeout)
    }

    /// Whether a process holds the lock `name` now, read from the server without taking it.
    public func isLocked(named name: String) throws(GraphStoreError) -> Bool {
        try postgresStore().isLocked(named: name)
    }

    private func postgresStore() throws(GraphStoreError) -> PostgresStore {
        guard let store = store as? PostgresStore else { throw .incompatibleStore("named locks need a PostgreSQL store") }
        return store
    }

    /// Whether `location` holds a store already (a non-empty file, or a PostgreSQL schema with
    /// GraphStore's tables). Creates nothing.
    public static func storeExists(at location: StoreLocation) throws(GraphStoreError) -> Bool {
        switch location {
        case .inMemory: false
        case .file(let path): (FileManagerProbe.size(path) ?? 0) > 0
        case .postgres(let conninfo): try PostgresStore.exists(conninfo: conninfo)
        }
    }
}
