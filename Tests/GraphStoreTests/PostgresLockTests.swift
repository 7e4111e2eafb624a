import Foundation
import GraphStore
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

    @Test func aTimedWaitTakesTheLockWhenItsHolderReleasesIt() throws {
        let store = try TestStore(.postgres)
        let (holder, other) = (try store.open(), try store.open())
        let held = try #require(try holder.lock(named: Self.name, wait: false))
        let releaser = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            held.release()
        }
        releaser.start()
        // Far longer than the holder keeps it: the wait ends when the lock is released.
        let taken = try other.lock(named: Self.name, waitingAtMost: .seconds(600))
        #expect(taken != nil)
        #expect(try holder.lock(named: Self.name, wait: false) == nil, "the waiter holds it now")
        taken?.release()
    }

    @Test func namedLocksAreForPostgreSQLStores() throws {
        let store = try TestStore(.file)
        #expect(throws: GraphStoreError.self) { try store.open().lock(named: Self.name, waitingAtMost: .seconds(1)) }
    }
}
