/// A SQLite store's named locks: the `flock` of its file (``FileLock``).
extension SQLiteStore {
    static func lock(named name: String, at location: StoreLocation, _ waiting: LockWait) throws(GraphStoreError) -> StoreLock? {
        try FileLock.take(try path(location), waiting).map(StoreLock.init)
    }

    static func isLocked(named name: String, at location: StoreLocation) throws(GraphStoreError) -> Bool {
        FileLock.isHeld(try path(location))
    }

    /// A memory store has no file that other processes see.
    private static func path(_ location: StoreLocation) throws(GraphStoreError) -> String {
        guard case .file(let path) = location else { throw .incompatibleStore("named locks need a file or a PostgreSQL store") }
        return path
    }
}
