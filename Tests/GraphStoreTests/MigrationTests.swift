import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

// The same "Book" entity in three shapes, as three classes sharing one entity name.
final class BookV1: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute var title = ""
}

/// v2: an optional attribute, a defaulted attribute, an index, and a new entity (Review).
final class BookV2: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute(.indexed) var title = ""
    @Attribute var subtitle: String? = nil
    @Attribute var rating = 3
    @ToMany(inverse: \Review.$book, deleteRule: .cascade) var reviews: [Review]
}

final class Review: ManagedObject {
    @Attribute var text = ""
    @ToOne var book: BookV2?
}

/// v2 that makes `title` unique.
final class BookUniqueTitle: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute(.unique) var title = ""
}

/// v2 that adds a non-optional attribute without a usable default... every Swift attribute has one, so: a type change.
final class BookTitleAsInt: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute var title = 0
}

@Suite(.onTestThreads) struct MigrationTests {
    private func seedV1(_ store: TemporaryStore, titles: [String] = ["Rio", "Lisboa"]) throws {
        let context = try store.open(version: 1, entities: [BookV1.self]).newContext()
        for (index, title) in titles.enumerated() {
            let book = context.insert(BookV1.self)
            book.isbn = "\(index + 1)"
            book.title = title
        }
        try context.save()
    }

    @Test(arguments: [Location.file, .postgres])
    func lightweightMigrationKeepsDataAndDefaultsNewColumns(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        do {
            let context = try store.open(version: 2, entities: [BookV2.self, Review.self]).newContext()
            let books = try context.all(BookV2.self, sortBy: [.ascending(\.$isbn)])
            #expect(books.map(\.title) == ["Rio", "Lisboa"])
            #expect(books.map(\.subtitle) == [nil, nil])
            #expect(books.map(\.rating) == [3, 3])
            let review = context.insert(Review.self)
            review.text = "good"
            review.book = books[0]
            books[1].subtitle = "sub"
            try context.save()
        }
        // Reopened at v2: no second migration, data as saved.
        let context = try store.open(version: 2, entities: [BookV2.self, Review.self]).newContext()
        let books = try context.all(BookV2.self, sortBy: [.ascending(\.$isbn)])
        #expect(books.map(\.subtitle) == [nil, "sub"])
        #expect(books[0].reviews.map(\.text) == ["good"])
        #expect(try store.indexes("Book").contains("Book_title_index"))
    }

    @Test(arguments: [Location.file, .postgres])
    func olderModelIsRefusedAndTheFileIsUntouched(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        _ = try store.open(version: 2, entities: [BookV2.self, Review.self])
        let before = try store.state()
        #expect {
            _ = try store.open(version: 1, entities: [BookV1.self])
        } throws: { error in
            guard case GraphStoreError.incompatibleStore(let reason) = error else { return false }
            return reason.contains("newer")
        }
        #expect(try store.state() == before)
    }

    @Test(arguments: [Location.file, .postgres])
    func sameVersionDifferentModelIsRefusedAndTheFileIsUntouched(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        let before = try store.state()
        #expect {
            _ = try store.open(version: 1, entities: [BookV2.self, Review.self])
        } throws: { error in
            guard case GraphStoreError.incompatibleStore = error else { return false }
            return true
        }
        #expect(try store.state() == before)
        // The v1 model still opens it, data intact.
        let context = try store.open(version: 1, entities: [BookV1.self]).newContext()
        #expect(try context.count(FetchRequest<BookV1>()) == 2)
    }

    @Test(arguments: [Location.file, .postgres])
    func typeChangeIsNotLightweight(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        let before = try store.state()
        #expect {
            _ = try store.open(version: 2, entities: [BookTitleAsInt.self])
        } throws: { error in
            guard case GraphStoreError.incompatibleStore(let reason) = error else { return false }
            return reason.contains("Book.title")
        }
        #expect(try store.state() == before)
    }

    @Test(arguments: [Location.file, .postgres])
    func newUniqueConstraintOverDuplicatesListsThemAndLeavesTheFile(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store, titles: ["Twin", "Dup", "Solo", "Dup", "Twin", "Dup"])
        let before = try store.state()
        #expect(throws: GraphStoreError.migrationConstraintViolation(entity: "Book", attributes: ["title"], duplicates: [["Dup"], ["Twin"]])) {
            _ = try store.open(version: 2, entities: [BookUniqueTitle.self])
        }
        #expect(try store.state() == before)
        let context = try store.open(version: 1, entities: [BookV1.self]).newContext()
        #expect(try context.count(FetchRequest<BookV1>()) == 6)

        // Without duplicates the same migration applies and then enforces the constraint.
        let clean = try TemporaryStore(location)
        try seedV1(clean, titles: ["A", "B"])
        let migrated = try clean.open(version: 2, entities: [BookUniqueTitle.self]).newContext()
        let book = migrated.insert(BookUniqueTitle.self)
        book.isbn = "9"
        book.title = "A"
        #expect(throws: GraphStoreError.self) { try migrated.save() }
    }
}
