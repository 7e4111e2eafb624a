import Synchronization

/// A named lock that every process using one PostgreSQL store shares: a session advisory lock,
/// keyed by the name and the store's schema, held on a connection of its own.
///
/// It is released by ``release()``, when the lock is deinitialized, or when its connection ends:
/// a process that dies (even by SIGKILL, or a host that loses the network) frees it with its
/// connection, so a lock is never left behind. The same holds for a connection the server ends
/// (a restart, `pg_terminate_backend`) while the process goes on: ``reassert()`` notices.
public final class StoreLock: Sendable {
    private let connection: Mutex<PostgresConnection>
    private let store: PostgresStore
    private let name: String

    init(connection: PostgresConnection, store: PostgresStore, name: String) {
        self.connection = Mutex(connection)
        (self.store, self.name) = (store, name)
    }

    /// Whether the lock is still held: its connection still stands, or it was gone and the lock,
    /// free, was taken again at once on a new one. False when another process took it meanwhile:
    /// the holder must stop writing what the lock guards.
    /// - Throws: `storeUnavailable` when the server cannot be reached to take it again.
    public func reassert() throws(GraphStoreError) -> Bool {
        if connection.withLock({ (try? $0.execute("SELECT 1")) != nil }) { return true }
        guard let retaken = try store.lockedConnection(named: name, wait: false) else { return false }
        connection.withLock { $0 = retaken }
        return true
    }

    /// Releases the lock now (idempotent; closing the connection would too).
    public func release() {
        connection.withLock { _ = try? $0.execute("SELECT pg_advisory_unlock_all()") }
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
        guard let store = ((store as? HistoryTrackingStore)?.base ?? store) as? PostgresStore else { throw .incompatibleStore("named locks need a PostgreSQL store") }
        return store
    }

    /// Whether `location` holds a store already (a file that is neither empty nor a SQLite
    /// database without tables, or a PostgreSQL schema with GraphStore's tables). Creates and
    /// changes nothing.
    public static func storeExists(at location: StoreLocation) throws(GraphStoreError) -> Bool {
        switch location {
        case .inMemory: false
        case .file(let path): SQLiteStoreProbe.holdsStore(path)
        case .postgres(let conninfo): try PostgresStore.exists(conninfo: conninfo)
        }
    }
}
