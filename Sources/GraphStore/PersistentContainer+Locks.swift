extension PersistentContainer {
    /// Takes the lock `name` that every process using the store at `location` shares (see
    /// ``StoreLock``): waits for it when `wait` is true, else returns nil when another process holds
    /// it. A SQLite file is created (mode 0600) if it does not exist yet; nothing else is.
    /// - Throws: `lockFailed` or `hardLinked` for a file, `storeUnavailable` when a server cannot
    ///   be reached, `incompatibleStore` for a memory store.
    public static func lock(named name: String, at location: StoreLocation, wait: Bool) throws(GraphStoreError) -> StoreLock? {
        try storeType(location).lock(named: name, at: location, wait ? .indefinitely : .no)
    }

    /// Takes the lock `name`, waiting at most `timeout` for another process to release it: nil
    /// when it did not in time. On PostgreSQL one connection waits; nothing polls.
    public static func lock(named name: String, at location: StoreLocation, waitingAtMost timeout: Duration) throws(GraphStoreError) -> StoreLock? {
        try storeType(location).lock(named: name, at: location, .atMost(timeout))
    }

    /// Whether a process holds the lock `name` on the store at `location` now, found without taking it.
    public static func isLocked(named name: String, at location: StoreLocation) throws(GraphStoreError) -> Bool {
        try storeType(location).isLocked(named: name, at: location)
    }

    /// The lock `name` on this container's store: ``lock(named:at:wait:)``.
    public func lock(named name: String, wait: Bool) throws(GraphStoreError) -> StoreLock? {
        try Self.lock(named: name, at: location, wait: wait)
    }

    /// The lock `name` on this container's store: ``lock(named:at:waitingAtMost:)``.
    public func lock(named name: String, waitingAtMost timeout: Duration) throws(GraphStoreError) -> StoreLock? {
        try Self.lock(named: name, at: location, waitingAtMost: timeout)
    }

    /// Whether a process holds the lock `name` on this container's store now.
    public func isLocked(named name: String) throws(GraphStoreError) -> Bool {
        try Self.isLocked(named: name, at: location)
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

extension StoreLocation {
    /// How many hard links a file store has (nil for a missing file and for other stores). SQLite
    /// keeps its write-ahead log per name: writers through two names corrupt one store, which is
    /// why a file with more than one is never locked (``GraphStoreError/hardLinked(path:links:)``).
    public var hardLinkCount: Int? {
        guard case .file(let path) = self else { return nil }
        return FileLock.linkCount(atPath: path)
    }
}
