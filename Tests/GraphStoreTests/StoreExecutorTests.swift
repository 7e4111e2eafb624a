import Foundation
import GraphStore
import Synchronization
import PhotoSyncTestSupport
import Testing

/// The async forms run on the store's own queue: work blocked there never holds one of Swift's
/// cooperative threads, so other tasks of the process go on.
@Suite(.onTestThreads) struct StoreExecutorTests {
    /// Three bodies (more than the two cooperative threads this machine has) wait, on the store's
    /// queue, for a flag that only a task on the cooperative pool sets after sleeping. Run on the
    /// pool, they would hold every thread of it and the flag would never be set: each gives up
    /// after 20 s and says so.
    @Test(arguments: [Location.file, .postgres])
    func blockedStoreWorkLeavesTheCooperativePoolFree(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let released = Released()
        @Sendable func waitingWrite(_ isbn: String) async throws -> Bool {
            try await container.write { context in
                let released = released.wait(seconds: 20)
                context.insert(Book.self).isbn = isbn
                return released
            }
        }
        async let first = waitingWrite("1")
        async let second = waitingWrite("2")
        async let third = container.read { _ in released.wait(seconds: 20) }
        try await Task.sleep(for: .milliseconds(200))
        released.flag.store(true, ordering: .sequentiallyConsistent)
        let outcomes = try await [first, second, third]
        #expect(outcomes == [true, true, true], "a body waited 20 s: it held a cooperative thread")
        #expect(try await container.read { context in try context.count(FetchRequest<Book>()) } == 2)
    }

    @Test(arguments: [Location.file, .postgres])
    func writeSavesWhatItsBodyChangedAndNothingWhenItThrows(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let name = try await container.write { context in
            let author = context.insert(Author.self)
            author.name = "Ana"
            return author.name
        }
        #expect(name == "Ana")
        await #expect(throws: CancellationError.self) {
            try await container.write { context in
                context.insert(Author.self).name = "Bo"
                throw CancellationError()
            }
        }
        #expect(try await container.read { context in try context.all(Author.self).map(\.name) } == ["Ana"])
    }
}

/// A flag set on one thread, waited for on another.
private final class Released: Sendable {
    let flag = Atomic(false)

    /// Whether the flag was set within `seconds`.
    func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !flag.load(ordering: .sequentiallyConsistent) {
            guard Date() < deadline else { return false }
            usleep(1_000)
        }
        return true
    }
}
