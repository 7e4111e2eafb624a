import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct ConcurrencyTests {
    @Test(arguments: [Location.file, .postgres])
    func backgroundTaskSavesAndTheMainContextSeesItByObjectID(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        let ids = try await container.performBackgroundTask { context in
            let author = context.insert(Author.self)
            author.name = "Ana"
            var books: [Book] = []
            for index in 0..<3 {
                let book = context.insert(Book.self)
                book.isbn = "\(index)"
                book.author = author
                books.append(book)
            }
            try context.save()
            return books.map(\.objectID) + [author.objectID]
        }
        #expect(ids.allSatisfy { !$0.isTemporary })
        let context = container.newContext()
        let books = try ids.dropLast().map { try context.existingObject(with: $0, as: Book.self) }
        #expect(books.map(\.isbn) == ["0", "1", "2"])
        let author = try context.existingObject(with: ids.last!, as: Author.self)
        #expect(author.books.count == 3)
        #expect(books.allSatisfy { $0.author === author })
        #expect(throws: GraphStoreError.objectNotFound(ids[0])) { try context.existingObject(with: ids[0], as: Author.self) }
        #expect(try store.reader().count(FetchRequest<Book>()) == 3)
    }

    @Test(arguments: [Location.file, .postgres])
    func twoBackgroundTasksSavingConcurrentlyBothLand(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        @Sendable func importBooks(_ prefix: String) async throws -> [ObjectID] {
            try await container.performBackgroundTask { context in
                var ids: [ObjectID] = []
                for round in 0..<5 {
                    var books: [Book] = []
                    for index in 0..<20 {
                        let book = context.insert(Book.self)
                        book.isbn = "\(prefix)-\(round)-\(index)"
                        books.append(book)
                    }
                    try context.save()
                    ids += books.map(\.objectID)
                }
                return ids
            }
        }
        async let first = importBooks("a")
        async let second = importBooks("b")
        let (a, b) = try await (first, second)
        #expect(Set(a).isDisjoint(with: Set(b)))
        let reader = try store.reader()
        #expect(try reader.count(FetchRequest<Book>()) == 200)
        #expect(try reader.count(FetchRequest<Book>(predicate: .beginsWith(\.$isbn, "a-"))) == 100)
        #expect(try reader.count(FetchRequest<Book>(predicate: .beginsWith(\.$isbn, "b-"))) == 100)
    }

    @Test(arguments: [Location.file, .postgres])
    func concurrentObjectTrumpImportsOfTheSameKeysConverge(_ location: Location) async throws {
        let store = try TestStore(location)
        let container = try store.open()
        @Sendable func importAuthors(_ country: String) async throws {
            try await container.performBackgroundTask(mergePolicy: .objectTrump) { context in
                for index in 0..<30 {
                    let author = context.insert(Author.self)
                    author.name = "author-\(index)"
                    author.country = country
                }
                try context.save()
            }
        }
        async let first: Void = importAuthors("BR")
        async let second: Void = importAuthors("PT")
        _ = try await (first, second)
        let reader = try store.reader()
        #expect(try reader.count(FetchRequest<Author>()) == 30)
        #expect(Set(try reader.all(Author.self).compactMap(\.country)).count == 1)  // one import's save came last, whole
    }
}

@Suite(.onTestThreads) struct SnapshotReadTests {
    /// Reads inside `readingOneSnapshot` agree with each other while another connection commits.
    @Test(arguments: [Location.file, .postgres])
    func readsInOneSnapshotIgnoreConcurrentCommits(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let seeding = try store.open().newContext()
        seeding.insert(Author.self).name = "Ana"
        try seeding.save()

        let reader = try store.open().newContext()
        let writer = try store.open().newContext()
        let (before, during) = try reader.readingOneSnapshot {
            let before = try reader.count(FetchRequest<Author>())
            writer.insert(Author.self).name = "Bo"
            try writer.save()
            return (before, try reader.fetch(FetchRequest<Author>()).count)
        }
        #expect(before == 1)
        #expect(during == 1)
        #expect(try reader.count(FetchRequest<Author>()) == 2)
    }
}
