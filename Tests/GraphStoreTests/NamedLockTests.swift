import Foundation
@testable import GraphStore
import Synchronization
import PhotoSyncTestSupport
import Testing

/// Named locks, the same API on both stores: held by one container (as by one host), seen and
/// waited for by another; a timed wait gives up, or takes the lock once it is released.
@Suite(.onTestThreads) struct NamedLockTests {
    static let name = "lock tests"

    @Test(arguments: [Location.file, .postgres])
    func aHeldLockIsSeenAndNotTakenByAnother(_ location: Location) throws {
        let store = try TestStore(location)
        let (holder, other) = (try store.open(), try store.open())
        let held = try #require(try holder.lock(named: Self.name, wait: false))
        #expect(try other.isLocked(named: Self.name))
        #expect(try other.lock(named: Self.name, wait: false) == nil)
        #expect(try other.lock(named: Self.name, waitingAtMost: .milliseconds(200)) == nil)
        held.release()
        #expect(try !other.isLocked(named: Self.name))
        let taken = try #require(try other.lock(named: Self.name, waitingAtMost: .seconds(10)))
        #expect(try holder.isLocked(named: Self.name))
        taken.release()
    }

    /// The holder releases only once the server shows the other container waiting for the lock
    /// (an advisory lock of this name and schema requested and not granted in pg_locks); the wait
    /// then ends with the lock taken.
    @Test func aTimedWaitTakesTheLockWhenItsHolderReleasesIt() throws {
        let store = try TemporaryStore(.postgres)
        let schema = try #require(store.schema)
        let (holder, other) = (try store.open(), try store.open())
        let held = try #require(try holder.lock(named: Self.name, wait: false))
        let sawWaiter = Seen()
        let waiting = """
            SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND classid = hashtext('\(Self.name)')::oid AND objid = hashtext('\(schema.name)')::oid
            """
        let releaser = Thread {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if (try? schema.rows(waiting)) == [["1"]] {
                    sawWaiter.value.store(true, ordering: .sequentiallyConsistent)
                    break
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            held.release()
        }
        releaser.start()
        // Far longer than the holder keeps it: the wait ends when the lock is released.
        let taken = try other.lock(named: Self.name, waitingAtMost: .seconds(600))
        let waited = sawWaiter.value.load(ordering: .sequentiallyConsistent)
        #expect(waited, "the other container never waited for the lock")
        #expect(taken != nil)
        #expect(try holder.lock(named: Self.name, wait: false) == nil, "the waiter holds it now")
        taken?.release()
    }

    /// A file's lock is the `flock` of the file itself: a symlink names the same lock; a second
    /// hard link is refused under either name (SQLite's WAL is per name).
    @Test func aFileLockIsSharedBySymlinksAndRefusesHardLinks() throws {
        let store = TemporaryStore()
        _ = try store.open()
        let alias = store.directory.appendingPathComponent("alias.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: store.path)
        let held = try #require(try PersistentContainer.lock(named: Self.name, at: .file(store.path), wait: false))
        #expect(try PersistentContainer.lock(named: "another name", at: .file(alias), wait: false) == nil)
        #expect(try PersistentContainer.isLocked(named: Self.name, at: .file(alias)))
        held.release()
        #expect(try !PersistentContainer.isLocked(named: Self.name, at: .file(alias)))
        let second = store.directory.appendingPathComponent("second.sqlite").path
        try FileManager.default.linkItem(atPath: store.path, toPath: second)
        #expect(StoreLocation.file(second).hardLinkCount == 2)
        for path in [store.path, second] {
            #expect(throws: GraphStoreError.hardLinked(path: path, links: 2)) {
                try PersistentContainer.lock(named: Self.name, at: .file(path), wait: false)
            }
        }
    }

    /// A lock's file that cannot be created says so, with the system's reason and a kind.
    @Test func aLockFileThatCannotBeCreatedIsALockFailure() throws {
        let path = TemporaryStore().directory.appendingPathComponent("missing/store.sqlite").path
        let error = #expect(throws: GraphStoreError.self) { try PersistentContainer.lock(named: Self.name, at: .file(path), wait: false) }
        #expect(error == .lockFailed(path: path, opening: true, reason: "No such file or directory", kind: .cannotOpen))
    }

    @Test func aMemoryStoreHasNoNamedLocks() throws {
        #expect(throws: GraphStoreError.self) { try PersistentContainer.lock(named: Self.name, at: .inMemory, waitingAtMost: .seconds(1)) }
    }
}

/// A flag one thread sets and another reads.
private final class Seen: Sendable {
    let value = Atomic(false)
}
