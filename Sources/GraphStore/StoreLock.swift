/// A named lock that every process using one store shares, held until ``release()`` or until it
/// is deinitialized. A process that dies (even by SIGKILL) frees it.
///
/// - A PostgreSQL store takes a session advisory lock, keyed by the name and the store's schema, on
///   a connection of its own: a host that loses the network frees it with its connection, and so
///   does a connection the server ends while the process goes on (``reassert()`` notices).
/// - A SQLite file takes an exclusive `flock` on the file itself, so a symlink shares it, and a
///   file with several hard links is refused (``GraphStoreError/hardLinked(path:links:)``). A file
///   has one lock, whatever its name. Release it only after closing every container on the file:
///   closing any descriptor of a file drops the process's POSIX locks on it, SQLite's included.
///
/// ```swift
/// guard let lock = try PersistentContainer.lock(named: "import", at: location, wait: false) else { return }
/// defer { lock.release() }
/// ```
public final class StoreLock: Sendable {
    private let held: any HeldLock

    init(_ held: any HeldLock) { self.held = held }

    /// Whether the lock is still held: for PostgreSQL, its connection still stands, or it was gone
    /// and the lock, free, was taken again at once on a new one. False when another process took
    /// it meanwhile: the holder must stop writing what the lock guards.
    /// - Throws: `storeUnavailable` when the server cannot be reached to take it again.
    public func reassert() throws(GraphStoreError) -> Bool { try held.reassert() }

    /// Releases the lock now (idempotent).
    public func release() { held.release() }
}

/// How long taking a lock waits for another process to release it.
enum LockWait: Sendable {
    case no
    case indefinitely
    case atMost(Duration)
}

/// A store's own kind of lock, as ``StoreLock`` holds it.
protocol HeldLock: Sendable {
    func reassert() throws(GraphStoreError) -> Bool
    func release()
}
