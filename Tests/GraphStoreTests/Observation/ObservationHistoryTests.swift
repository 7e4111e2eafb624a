import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// With `pollingHistoryEvery`, an observation sees saves by another container on the same store
/// (as it would another process's: nothing but persistent history connects them).
@Suite(.onTestThreads) struct ObservationHistoryTests {
    private static let titles = FetchRequest<Picture>(sortBy: [.ascending(\.$code)])

    @Test(arguments: historyLocations)
    func anotherContainersSavesAreSeenThroughHistory(_ location: Location) async throws {
        let store = try HistoryStore(location)
        let observed = try store.open()
        let other = try store.open()
        let fetches = FetchCounter()
        let (values, task) = Collected.consuming(observed.observe(Self.titles, pollingHistoryEvery: .milliseconds(20)) { pictures in
            fetches.increment()
            return pictures.map(\.title)
        })
        defer { task.cancel() }
        try await values.first { $0.isEmpty }

        try await other.write { context in context.insert(Shooter.self).name = "Ana" }  // not read by the fetch
        try await Task.sleep(for: .milliseconds(300))
        try await observed.drainQueue()
        #expect(fetches.value == 1)

        try await other.write { context in
            let picture = context.insert(Picture.self)
            (picture.code, picture.title) = ("p1", "Harbour")
        }
        try await values.first(where: { $0 == ["Harbour"] }, "another container's save")
        try await other.write { context in try context.fetch(Self.titles)[0].title = "Harbour at dusk" }
        try await values.first(where: { $0 == ["Harbour at dusk"] }, "another container's update")
    }

    @Test(arguments: historyLocations)
    func ownSavesAreNotFetchedTwice(_ location: Location) async throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let fetches = FetchCounter()
        let (values, task) = Collected.consuming(container.observe(Self.titles, pollingHistoryEvery: .milliseconds(20)) { pictures in
            fetches.increment()
            return pictures.count
        })
        defer { task.cancel() }
        try await values.first { $0 == 0 }
        try await container.write { context in context.insert(Picture.self).code = "p1" }
        try await values.first(where: { $0 == 1 }, "the save's result")
        try await Task.sleep(for: .milliseconds(300))  // polls see the save's token: already fetched
        try await container.drainQueue()
        #expect(fetches.value == 2)
    }
}
