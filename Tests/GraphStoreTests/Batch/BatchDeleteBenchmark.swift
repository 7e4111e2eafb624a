import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Issue 30's batch delete figures (run by hand, release build; nothing asserts a time):
/// `GRAPHSTORE_BENCH=1 photosyncPackageTests.xctest --filter BatchDeleteBenchmark`.
/// Deletes 24,000 of 25,000 books (each by a nullifying to-one to one of 240 authors) three
/// ways, each on a fresh store: the floor (one `DELETE ... WHERE`, no rules, no history), a
/// batch delete, and a context that fetches the objects, deletes them and saves.
@Suite(.onTestThreads) struct BatchDeleteBenchmark {
    static let matched = 24_000

    @Test(.enabled(if: ProcessInfo.processInfo.environment["GRAPHSTORE_BENCH"] != nil), arguments: [Location.file, .postgres])
    func batchDeleteAgainstAContextDelete(_ location: Location) throws {
        let request = FetchRequest<Book>(predicate: \.$pages < Self.matched)
        var figures: [String] = []
        for way in ["floor", "batch", "context"] {
            let store = try TemporaryStore(location)
            let container = try store.open()
            try seed(container)
            let start = ContinuousClock.now
            switch way {
            case "floor": try store.alter("DELETE FROM \"Book\" WHERE \"pages\" < \(Self.matched)")
            case "batch": #expect(try container.newContext().batchDelete(request).deleted(Book.self).count == Self.matched)
            default:
                let context = container.newContext()
                for book in try context.fetch(request) { context.delete(book) }
                try context.save()
            }
            let elapsed = ContinuousClock.now - start
            #expect(try container.newContext().count(FetchRequest<Book>()) == 1_000)
            figures.append("\(way) \(elapsed)")
        }
        print("batch delete of \(Self.matched) rows, \(location): " + figures.joined(separator: ", "))
    }

    private func seed(_ container: PersistentContainer) throws {
        let context = container.newContext()
        let authors = (0..<240).map { index in
            let author = context.insert(Author.self)
            author.name = "a\(index)"
            return author
        }
        for index in 0..<(Self.matched + 1_000) {
            let book = context.insert(Book.self)
            (book.isbn, book.pages, book.author) = ("b\(index)", index, authors[index % authors.count])
        }
        try context.save()
    }
}
