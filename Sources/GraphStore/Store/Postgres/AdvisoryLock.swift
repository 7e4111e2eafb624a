import Synchronization

/// A PostgreSQL store's named lock: a session advisory lock on a connection of its own.
final class AdvisoryLock: HeldLock {
    private let connection: Mutex<PostgresConnection>
    private let locks: AdvisoryLocks
    private let name: String

    init(connection: PostgresConnection, locks: AdvisoryLocks, name: String) {
        self.connection = Mutex(connection)
        (self.locks, self.name) = (locks, name)
    }

    /// True while the connection stands; when it is gone, the lock is taken again at once on a
    /// new one if it is free.
    func reassert() throws(GraphStoreError) -> Bool {
        if connection.withLock({ (try? $0.execute("SELECT 1")) != nil }) { return true }
        guard let retaken = try locks.lockedConnection(named: name, wait: false) else { return false }
        connection.withLock { $0 = retaken }
        return true
    }

    /// (Closing the connection would release it too.)
    func release() {
        connection.withLock { _ = try? $0.execute("SELECT pg_advisory_unlock_all()") }
    }

    deinit { release() }
}
