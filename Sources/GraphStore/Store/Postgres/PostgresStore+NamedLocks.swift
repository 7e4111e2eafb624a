/// A PostgreSQL store's named locks: session advisory locks (``AdvisoryLocks``).
extension PostgresStore {
    static func lock(named name: String, at location: StoreLocation, _ waiting: LockWait) throws(GraphStoreError) -> StoreLock? {
        try AdvisoryLocks(conninfo: conninfo(location)).lock(named: name, waiting)
    }

    static func isLocked(named name: String, at location: StoreLocation) throws(GraphStoreError) -> Bool {
        try AdvisoryLocks(conninfo: conninfo(location)).isLocked(named: name)
    }

    private static func conninfo(_ location: StoreLocation) -> String {
        guard case .postgres(let conninfo) = location else { preconditionFailure("a PostgreSQL store's lock at \(location)") }
        return conninfo
    }
}
