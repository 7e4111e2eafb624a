import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A fetch whose predicate is one long `isIn` list (on SQLite, joined to the table as one JSON
/// array instead of an `IN` list; issue 24): it must match exactly as `IN` does, each row once,
/// objects in id order, whatever the keys hold.
@Suite(.onTestThreads) struct LongKeyListTests {
    /// Keys JSON must escape, and one it cannot carry (a NUL: the list stays an `IN` list).
    private static let oddKeys = ["quo\"te", "back\\slash", "tab\there", "line\nbreak", "ünï 夜景 ❤️", "𝐀", ""]

    /// 300 books, isbn "b0"…"b299" (pages = the number), then one per odd key (and, but on
    /// PostgreSQL, whose text cannot hold it, one with a NUL).
    private static func seeded(_ location: Location) throws -> TestStore {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        for number in 0..<300 {
            let book = context.insert(Book.self)
            (book.isbn, book.pages) = ("b\(number)", number)
        }
        for (index, key) in (oddKeys + (location == .postgres ? [] : ["nul\u{0}key"])).enumerated() {
            let book = context.insert(Book.self)
            (book.isbn, book.pages) = (key, 1_000 + index)
        }
        try context.save()
        return store
    }

    @Test(arguments: Location.allCases)
    func eachMatchingRowComesOnceInIDOrder(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.reader()
        // Every third book, listed backwards and twice, odd keys, and keys no book has.
        let wanted = stride(from: 0, to: 300, by: 3).map { "b\($0)" }
        let keys = wanted.reversed() + wanted + Self.oddKeys + (0..<50).map { "missing\($0)" }
        let books = try context.fetch(FetchRequest<Book>(predicate: .isIn(\.$isbn, keys)))
        #expect(books.map(\.isbn) == wanted + Self.oddKeys)
        #expect(books.map(\.pages) == stride(from: 0, to: 300, by: 3).map { $0 } + (0..<Self.oddKeys.count).map { 1_000 + $0 })
        let columns = try context.fetchColumns(FetchRequest<Book>(predicate: .isIn(\.$isbn, keys)), [\.$isbn])
        #expect(try columns.values(\.$isbn).sorted() == (wanted + Self.oddKeys).sorted())
    }

    @Test(arguments: [Location.file, .postgres])
    func integerKeysAndAKeyJSONCannotCarryMatchToo(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.reader()
        let pages = (100..<200).map { $0 } + (100..<200).map { $0 } + [5_000]
        let books = try context.fetch(FetchRequest<Book>(predicate: .isIn(\.$pages, pages)))
        #expect(books.map(\.pages) == Array(100..<200))
        guard location != .postgres else { return }
        let withNul = (0..<100).map { "b\($0)" } + ["nul\u{0}key"]
        let found = try context.fetchColumns(FetchRequest<Book>(predicate: .isIn(\.$isbn, withNul)), [\.$isbn]).values(\.$isbn)
        #expect(found.sorted() == withNul.sorted())
    }

    /// A save's unique check reads the stored rows its new objects' keys name in one list too.
    @Test(arguments: [Location.file, .postgres])
    func manyNewObjectsFindTheStoredRowsTheirKeysName(_ location: Location) throws {
        let store = try Self.seeded(location)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        for number in 250..<350 {
            let book = context.insert(Book.self)
            (book.isbn, book.title) = ("b\(number)", "new")
        }
        context.insert(Book.self).isbn = Self.oddKeys[0]
        try context.save()
        let reader = try store.reader()
        #expect(try reader.count(FetchRequest<Book>()) == 300 + 50 + Self.oddKeys.count + (location == .postgres ? 0 : 1))
        let renamed = try reader.fetchColumns(FetchRequest<Book>(predicate: \.$title == "new"), [\.$isbn, \.$pages]).values(\.$pages)
        #expect(renamed.sorted() == Array(repeating: 0, count: 50) + Array(250..<300))
    }
}
