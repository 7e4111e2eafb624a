import Foundation
import GraphStore

/// The lock that lets one fetch at a time write a catalog, held for the whole fetch: `flock` on a
/// catalog file (``CatalogLock``), or on a PostgreSQL catalog a session advisory lock, which every
/// host sharing it sees and which a host that dies releases with its connection.
enum FetchLock {
    case file(CatalogLock)
    case postgres(StoreLock, Catalog)

    /// The advisory lock's name (keyed with the catalog's schema).
    static let name = "photosync fetch"

    /// Takes the lock on the catalog at `location` (creating a file catalog, or a PostgreSQL
    /// catalog's tables, if needed): waits when `wait` is true (until `deadline`, if any, then
    /// fails with `.timeLimit`), else fails with `.locked` (75). `onWait` is called once, before
    /// waiting, when another fetch holds it.
    static func take(_ location: CatalogLocation, wait: Bool, deadline: FetchDeadline? = nil, onWait: () -> Void) throws -> FetchLock {
        switch location {
        case .file(let path): .file(try CatalogLock(databasePath: path, wait: wait, deadline: deadline, onWait: onWait))
        case .postgres: try takeAdvisory(location, wait: wait, deadline: deadline, onWait: onWait)
        }
    }

    private static func takeAdvisory(_ location: CatalogLocation, wait: Bool, deadline: FetchDeadline?, onWait: () -> Void) throws -> FetchLock {
        let catalog = try Catalog(location)
        if let lock = try advisoryLock(catalog, { container throws(GraphStoreError) in try container.lock(named: name, wait: false) }) {
            return .postgres(lock, catalog)
        }
        guard wait else { throw PhotoSyncError.locked("another fetch is running on \(location.display)") }
        onWait()
        // With a deadline the server gives up the wait at it (one connection waits, nothing polls).
        let lock = try advisoryLock(catalog) { container throws(GraphStoreError) in
            guard let deadline else { return try container.lock(named: name, wait: true) }
            return deadline.hasPassed ? nil : try container.lock(named: name, waitingAtMost: deadline.remaining)
        }
        guard let lock else { throw deadline?.exceeded ?? PhotoSyncError.locked("another fetch is running on \(location.display)") }
        return .postgres(lock, catalog)
    }

    private static func advisoryLock(_ catalog: Catalog, _ take: (PersistentContainer) throws(GraphStoreError) -> StoreLock?) throws -> StoreLock? {
        do throws(GraphStoreError) {
            return try take(catalog.container)
        } catch {
            throw PhotoSyncError.from(error, path: catalog.path)
        }
    }

    /// What the fetch checks before each page's save: nil for a file's `flock`, which the kernel
    /// keeps as long as the process lives.
    var lease: LockLease? {
        guard case .postgres(let lock, let catalog) = self else { return nil }
        return LockLease(location: catalog.path) {
            do throws(GraphStoreError) { return try lock.reassert() } catch { throw PhotoSyncError.from(error, path: catalog.path) }
        }
    }

    /// The catalog to fetch into: the one the lock was taken on, or the file opened now (after
    /// the `flock`, so that the catalog closes before the lock's descriptor does).
    func catalog(_ location: CatalogLocation) throws -> Catalog {
        if case .postgres(_, let catalog) = self { return catalog }
        return try Catalog(location)
    }
}

extension Catalog {
    /// Whether a fetch holds the catalog's lock now, found without taking it.
    func fetchIsRunning() throws -> Bool {
        switch location {
        case .file(let path):
            return CatalogLock.isHeld(databasePath: path)
        case .postgres:
            do throws(GraphStoreError) { return try container.isLocked(named: FetchLock.name) } catch { throw PhotoSyncError.from(error, path: path) }
        }
    }
}
