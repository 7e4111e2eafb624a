import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// `observe`: fresh results after every save of the container that could change them.
@Suite(.onTestThreads) struct ObservationTests {
    private static let names = FetchRequest<Author>(sortBy: [.ascending(\.$name)])

    private static func addAuthor(_ container: PersistentContainer, _ name: String) async throws {
        try await container.write { context in context.insert(Author.self).name = name }
    }

    @Test(arguments: [Location.file, .memory, .postgres])
    func initialValueThenOneAfterEachSaveOfAnyContextOrImport(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        try await Self.addAuthor(container, "Ana")
        let (values, task) = Collected.consuming(container.observe(Self.names) { $0.map(\.name) })
        defer { task.cancel() }
        #expect(try await values.first { _ in true } == ["Ana"])

        try await Self.addAuthor(container, "Bo")
        try await values.first(where: { $0 == ["Ana", "Bo"] }, "a context's save")
        try await container.performBackgroundTask { context in
            try context.fetch(Self.names)[0].name = "Ana Lima"
            try context.save()
        }
        try await values.first(where: { $0 == ["Ana Lima", "Bo"] }, "a background context's save")
        var authors = ImportRecords(Author.self, key: \.$name)
        authors.append("Cy")
        let records = authors
        _ = try await container.importing(mergePolicy: .objectTrump) { session in try session.save(records) }
        try await values.first(where: { $0 == ["Ana Lima", "Bo", "Cy"] }, "an import session's save")
        #expect(values.all.first == ["Ana"])
    }

    @Test(arguments: [Location.file, .postgres])
    func savesOfEntitiesTheFetchDoesNotReadFetchNothing(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let fetches = FetchCounter()
        let byAna = FetchRequest<Book>(predicate: .whose(\.$author, \.$name == "Ana"), sortBy: [.ascending(\.$isbn)])
        let (values, task) = Collected.consuming(container.observe(byAna) { books in
            fetches.increment()
            return books.map(\.isbn)
        })
        defer { task.cancel() }
        try await values.first { $0.isEmpty }
        try await container.write { context in context.insert(Event.self).source = "elsewhere" }
        try await container.drainQueue()  // a fetch the save queued would have run by now
        #expect(fetches.value == 1)

        try await container.write { context in
            let author = context.insert(Author.self)
            author.name = "Bo"
            let book = context.insert(Book.self)
            (book.isbn, book.author) = ("b1", author)
        }
        try await values.first(where: { _ in fetches.value == 2 }, "a fetch after a save of Book")
        try await container.write { context in try context.fetch(FetchRequest<Author>())[0].name = "Ana" }
        try await values.first(where: { $0 == ["b1"] }, "a fetch after a save of Author, which the predicate reaches")
    }

    @Test(arguments: [Location.file, .postgres])
    func aBurstOfSavesCostsOneFetch(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let fetches = FetchCounter()
        let (values, task) = Collected.consuming(container.observe(Self.names) { authors in
            fetches.increment()
            return authors.count
        })
        defer { task.cancel() }
        try await values.first { $0 == 0 }
        try await container.executor.run {
            let context = container.newContext()
            for index in 0..<10 {
                context.insert(Author.self).name = "author \(index)"
                try context.save()
            }
        }
        try await values.first(where: { $0 == 10 }, "the burst's result")
        try await container.drainQueue()
        #expect(fetches.value == 2)
    }

    @Test(arguments: [Location.file, .postgres])
    func endingTheLoopOrCancellingStopsAndLetsGo(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let fetches = FetchCounter()
        weak var captured: FetchCounter?
        do {
            let held = FetchCounter()
            captured = held
            for try await _ in container.observe(Self.names, { held.increment(); fetches.increment(); return $0.count }) { break }
            let (values, task) = Collected.consuming(container.observe(Self.names) { held.increment(); fetches.increment(); return $0.count })
            try await values.first { $0 == 0 }
            task.cancel()
            _ = await task.value
        }
        try await Self.addAuthor(container, "Ana")
        try await container.drainQueue()
        #expect(fetches.value == 2)
        #expect(captured == nil, "the fetch closure is still held")
        #expect(!container.broadcaster.isObserved)
    }

    @Test(arguments: [Location.file, .postgres])
    func callbackFormDeliversUntilCancelled(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let values = Collected<[String]>()
        let observation = container.observe(Self.names) { $0.map(\.name) }.start(onChange: values.append)
        try await values.first { $0.isEmpty }
        try await Self.addAuthor(container, "Ana")
        try await values.first(where: { $0 == ["Ana"] }, "the value after a save")
        observation.cancel()
        try await Self.addAuthor(container, "Bo")
        try await container.drainQueue()
        #expect(values.all == [[], ["Ana"]])
    }

    @Test(arguments: [Location.file, .postgres])
    func aFailingFetchEndsTheSequenceWithItsError(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let (values, task) = Collected<Int>.consuming(container.observe(Self.names) { authors in
            if !authors.isEmpty { throw ValidationFailure("no authors expected") }
            return 0
        })
        try await values.first { $0 == 0 }
        try await Self.addAuthor(container, "Ana")
        #expect(try await values.failure().contains("no authors expected"))
        _ = await task.value
        #expect(!container.broadcaster.isObserved)
    }
}
