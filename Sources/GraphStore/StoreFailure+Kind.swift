extension StoreFailure {
    /// What went wrong, in terms both stores share, so that a caller never reads engine codes or
    /// messages. Each store maps its own codes (SQLite's result codes, PostgreSQL's SQLSTATE).
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// No space left for the store's files (SQLite's `SQLITE_FULL`, PostgreSQL's `disk_full`).
        case diskFull
        /// The operating system failed a read or write of the store's files.
        case ioError
        /// The store's file (or its journal) could not be opened or created.
        case cannotOpen
        /// The store (a file, a server in recovery, a read-only transaction) refuses writes.
        case readOnly
        /// The file is not a database.
        case notADatabase
        /// The database is damaged.
        case corrupt
        /// This process could not allocate memory (SQLite's or libpq's own allocations).
        case outOfMemory
        /// The server ran short of memory, connections or another resource of its own.
        case serverResourcesExhausted
        /// A row broke a unique index.
        case uniqueViolation
        /// A row broke a foreign key.
        case foreignKeyViolation
        /// A row broke another constraint (NOT NULL, CHECK).
        case constraintViolation
        /// Another connection's transaction overlapped this one (a serialization failure or deadlock).
        case serializationFailure
        /// Another connection holds the lock this one needs, past the wait allowed.
        case busy
        /// A statement ran past its time limit and was cancelled.
        case timeout
        /// The operation was interrupted.
        case interrupted
        /// The server could not be reached, or ended the connection.
        case connectionLost
        /// The server refused the credentials.
        case authenticationFailed
        /// The user may not read or write this store.
        case permissionDenied
        /// Anything else: the message says what.
        case other
    }
}
