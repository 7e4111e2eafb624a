import Foundation
import GraphStore

/// The lock that lets one fetch at a time write a catalog, held for the whole fetch: GraphStore's
/// named lock on the catalog's store (``StoreLock``), which every process sharing the catalog sees
/// and which a process that dies releases.
struct FetchLock {
    let lock: StoreLock
    let location: CatalogLocation

    /// The lock's name.
    static let name = "photosync fetch"

    /// Takes the lock on the catalog at `location` (creating a file catalog if needed): waits when
    /// `wait` is true (until `deadline`, if any, then fails with `.timeLimit`), else fails with
    /// `.locked` (75). `onWait` is called once, before waiting, when another fetch holds it.
    static func take(_ location: CatalogLocation, wait: Bool, deadline: FetchDeadline? = nil, onWait: () -> Void) throws -> FetchLock {
        let store = location.storeLocation
        if let lock = try attempt(location, { () throws(GraphStoreError) in try PersistentContainer.lock(named: name, at: store, wait: false) }) {
            return FetchLock(lock: lock, location: location)
        }
        guard wait else { throw PhotoSyncError.locked("another fetch is running on \(location.display)") }
        onWait()
        let lock = try attempt(location) { () throws(GraphStoreError) in
            guard let deadline else { return try PersistentContainer.lock(named: name, at: store, wait: true) }
            return deadline.hasPassed ? nil : try PersistentContainer.lock(named: name, at: store, waitingAtMost: deadline.remaining)
        }
        guard let lock else { throw deadline?.exceeded ?? PhotoSyncError.locked("another fetch is running on \(location.display)") }
        return FetchLock(lock: lock, location: location)
    }

    private static func attempt(_ location: CatalogLocation, _ take: () throws(GraphStoreError) -> StoreLock?) throws -> StoreLock? {
        do throws(GraphStoreError) {
            return try take()
        } catch {
            throw PhotoSyncError.from(error, path: location.display)
        }
    }

    /// What the fetch checks before each page's save: a lock lost with its connection is taken
    /// again, or the fetch stops.
    var lease: LockLease {
        LockLease(location: location.display) {
            do throws(GraphStoreError) { return try lock.reassert() } catch { throw PhotoSyncError.from(error, path: location.display) }
        }
    }

    /// The catalog to fetch into, opened now: after the lock, so that a file catalog closes before
    /// the lock's descriptor does.
    func catalog(_ location: CatalogLocation) throws -> Catalog {
        try Catalog(location)
    }
}

extension Catalog {
    /// Whether a fetch holds the catalog's lock now, found without taking it.
    func fetchIsRunning() throws -> Bool {
        try location.fetchIsRunning()
    }
}

extension CatalogLocation {
    /// Whether a fetch holds the lock of the catalog here now, found without taking it.
    func fetchIsRunning() throws -> Bool {
        do throws(GraphStoreError) {
            return try PersistentContainer.isLocked(named: FetchLock.name, at: storeLocation)
        } catch {
            throw PhotoSyncError.from(error, path: display)
        }
    }
}
