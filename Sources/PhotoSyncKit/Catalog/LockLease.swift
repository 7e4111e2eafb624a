import Foundation

/// The fetch lock as a running fetch checks it, before each page's save: a PostgreSQL advisory
/// lock lives only as long as its connection, which the server may end (a restart,
/// `pg_terminate_backend`) while the fetch goes on. A lost lock is taken again at once when it is
/// free; when another fetch took it, this one stops (75) with the pages it saved, so two fetches
/// never write at once.
final class LockLease {
    /// Whether the lock is (again) held; false when another process holds it.
    private let reassert: () throws -> Bool
    /// The catalog, as messages name it.
    private let location: String
    /// The last moment the lock was known held: a run stopped by its loss ends there, before
    /// the run of the fetch that took the lock began.
    private(set) var confirmed = Date()

    init(location: String, reassert: @escaping () throws -> Bool) {
        (self.location, self.reassert) = (location, reassert)
    }

    /// Checks that the lock is still held (taking it again if it was lost and is free).
    /// - Throws: `.locked` (75) when another fetch holds it now.
    func confirm() throws {
        let now = Date()
        guard try reassert() else {
            throw PhotoSyncError.locked("the fetch lock on \(location) was lost (its connection ended) and another fetch holds it now")
        }
        confirmed = now
    }
}
