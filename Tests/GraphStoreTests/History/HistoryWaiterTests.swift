import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// ``HistoryWaiter``: a follower learns of other containers' commits. On PostgreSQL it is told
/// (LISTEN/NOTIFY), so it hears a commit even when its poll interval is an hour; on SQLite it looks
/// at the file every interval. A rolled-back save tells nothing; cancellation ends a wait.
@Suite("Persistent history: waiting for commits", .onTestThreads)
struct HistoryWaiterTests {
    /// PostgreSQL never polls: an hour between looks must not matter there.
    static func interval(_ location: Location) -> Duration { location == .postgres ? .seconds(3600) : .milliseconds(50) }

    static func save(_ container: PersistentContainer, code: String) throws {
        let context = container.newContext()
        context.insert(Picture.self).code = code
        try context.save()
    }

    @Test(arguments: historyLocations) func aCommitElsewhereEndsTheWait(_ location: Location) throws {
        let store = try HistoryStore(location)
        let (follower, writer) = (try store.open(), try store.open())
        try Self.save(writer, code: "p1")
        let waiter = try follower.historyWaiter(pollInterval: Self.interval(location))
        #expect(try waiter.wait(after: .start, timeout: .seconds(60), until: { false }), "p1 committed before the waiter listened")
        var token = try follower.currentHistoryToken()
        #expect(try !waiter.wait(after: token, timeout: .milliseconds(300), until: { false }), "nothing committed since")

        try Self.save(writer, code: "p2")
        #expect(try waiter.wait(after: token, timeout: .seconds(60), until: { false }))
        let page = try follower.history(after: token)
        #expect(page.transactions.flatMap(\.changes).map(\.textKey) == ["p2"])
        token = page.token

        let failing = writer.newContext()
        failing.insert(Picture.self).code = "p2"  // the key is taken: the save fails and rolls back
        #expect(throws: GraphStoreError.self) { try failing.save() }
        #expect(try !waiter.wait(after: token, timeout: .milliseconds(300), until: { false }), "a rollback commits nothing")
        #expect(try !waiter.wait(after: token, timeout: .seconds(60), until: { true }), "cancelled at once")
        withExtendedLifetime(store) {}
    }
}
