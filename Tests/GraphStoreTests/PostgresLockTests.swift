import Foundation
@testable import GraphStore
import Synchronization
import Testing

/// Named locks on a PostgreSQL store: held by one container (as by one host), seen and waited for
/// by another; a timed wait gives up, or takes the lock once it is released.
@Suite struct PostgresLockTests {
    static let name = "lock tests"

    @Test func aHeldLockIsSeenAndNotTakenByAnother() throws {
        let store = try TestStore(.postgres)
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

    @Test func namedLocksAreForPostgreSQLStores() throws {
        let store = try TestStore(.file)
        #expect(throws: GraphStoreError.self) { try store.open().lock(named: Self.name, waitingAtMost: .seconds(1)) }
    }
}

/// A flag one thread sets and another reads.
private final class Seen: Sendable {
    let value = Atomic(false)
}
