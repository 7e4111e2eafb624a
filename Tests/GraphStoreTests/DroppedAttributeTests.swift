import Foundation
import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

/// v2 of `BookV1` without `title`.
final class BookWithoutTitle: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
}

final class BookIndexedTitle: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute(.indexed) var title = ""
}

/// `BookV2` without `reviews`, `subtitle` and the indexed `title`.
final class BookWithoutReviews: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute var rating = 3
}

/// `Review` without its to-one `book`.
final class ReviewWithoutBook: ManagedObject {
    override class var entityName: String { "Review" }
    @Attribute var text = ""
}

/// A migration that drops an attribute removes its column in the same transaction; declaring the
/// attribute again later works (it used to fail with "duplicate column name").
@Suite(.onTestThreads) struct DroppedAttributeTests {
    private func seedV1(_ store: TemporaryStore) throws {
        let context = try store.open(version: 1, entities: [BookV1.self]).newContext()
        for (isbn, title) in [("1", "Rio"), ("2", "Lisboa")] {
            let book = context.insert(BookV1.self)
            (book.isbn, book.title) = (isbn, title)
        }
        try context.save()
    }

    @Test(arguments: [Location.file, .postgres])
    func aDroppedAttributeLeavesTheTableAndCanBeDeclaredAgain(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        let v2 = try store.open(version: 2, entities: [BookWithoutTitle.self]).newContext()
        #expect(try v2.all(BookWithoutTitle.self, sortBy: [.ascending(\.$isbn)]).map(\.isbn) == ["1", "2"])
        #expect(try store.columns("Book") == ["id", "isbn"])

        let v3 = try store.open(version: 3, entities: [BookV1.self]).newContext()
        #expect(try v3.all(BookV1.self, sortBy: [.ascending(\.$isbn)]).map(\.title) == ["", ""])
        let book = v3.insert(BookV1.self)
        (book.isbn, book.title) = ("3", "Porto")
        try v3.save()
        let reopened = try store.open(version: 3, entities: [BookV1.self]).newContext()
        #expect(try reopened.all(BookV1.self, sortBy: [.ascending(\.$isbn)]).map(\.title) == ["", "", "Porto"])
    }

    /// An indexed attribute: its index goes first (SQLite refuses to drop an indexed column).
    @Test(arguments: [Location.file, .postgres])
    func anIndexedAttributeIsDroppedWithItsIndex(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let context = try store.open(version: 1, entities: [BookIndexedTitle.self]).newContext()
        context.insert(BookIndexedTitle.self).isbn = "1"
        try context.save()
        let v2 = try store.open(version: 2, entities: [BookWithoutTitle.self]).newContext()
        #expect(try v2.all(BookWithoutTitle.self).map(\.isbn) == ["1"])
        #expect(try store.columns("Book") == ["id", "isbn"])
        #expect(try store.indexes("Book") == ["Book_isbn_unique"])
    }

    /// A to-one's column carries a foreign key, which SQLite cannot drop inside the migration's
    /// transaction: refused by name, the file as it was.
    @Test(arguments: [Location.file, .postgres])
    func aDroppedToOneIsRefusedAndTheFileIsUntouched(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        _ = try store.open(version: 2, entities: [BookV2.self, Review.self])
        let before = try store.state()
        #expect {
            _ = try store.open(version: 3, entities: [BookWithoutReviews.self, ReviewWithoutBook.self])
        } throws: { error in
            guard case GraphStoreError.incompatibleStore(let reason) = error else { return false }
            return reason.contains("Review.book")
        }
        #expect(try store.state() == before)
    }

    /// A store an earlier GraphStore migrated by forgetting the attribute (its column stayed):
    /// it opens, and declaring the attribute again replaces the stale column.
    @Test(arguments: [Location.file, .postgres])
    func aColumnLeftByAnEarlierDropIsReplacedWhenDeclaredAgain(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        try store.editSnapshot { text in
            var snapshot = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
            var tables = snapshot["tables"] as! [[String: Any]]
            tables[0]["columns"] = (tables[0]["columns"] as! [[String: Any]]).filter { $0["name"] as? String != "title" }
            snapshot["tables"] = tables
            return String(decoding: try JSONSerialization.data(withJSONObject: snapshot, options: [.sortedKeys]), as: UTF8.self)
        }
        #expect(try store.open(version: 1, entities: [BookWithoutTitle.self]).newContext().count(FetchRequest<BookWithoutTitle>()) == 2)
        let v2 = try store.open(version: 2, entities: [BookV1.self]).newContext()
        #expect(try v2.all(BookV1.self).map(\.title) == ["", ""])
    }
}

/// `Author`/`Book` of the test model, with `books` nullified instead of cascaded.
final class NullifyingAuthor: ManagedObject {
    override class var entityName: String { "Author" }
    @Attribute(.unique) var name = ""
    @Attribute var country: String? = nil
    @ToMany(inverse: \NullifiedBook.$author, deleteRule: .nullify) var books: [NullifiedBook]
}

final class NullifiedBook: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute var title = ""
    @Attribute var pages = 0
    @Attribute var published: Date? = nil
    @ToOne var author: NullifyingAuthor?
}

/// The delete rule lives in the table's foreign key (ON DELETE CASCADE): a migration cannot
/// change it in place, so it refuses instead of leaving the store's action out of step with the model.
@Suite(.onTestThreads) struct ChangedDeleteRuleTests {
    @Test(arguments: [Location.file, .postgres])
    func aChangedDeleteRuleIsRefusedAndTheFileIsUntouched(_ location: Location) throws {
        let store = try TemporaryStore(location)
        _ = try store.open(version: 1)
        let before = try store.state()
        #expect {
            _ = try store.open(version: 2, entities: [NullifyingAuthor.self, NullifiedBook.self])
        } throws: { error in
            guard case GraphStoreError.incompatibleStore(let reason) = error else { return false }
            return reason.contains("Book.author") && reason.contains("CASCADE to SET NULL")
        }
        #expect(try store.state() == before)
    }
}
