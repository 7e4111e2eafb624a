import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// v2 of `BookV1` with both attributes renamed (Core Data's `renamingIdentifier`).
final class BookRenamed: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique, .renamed(from: "isbn")) var code = ""
    @Attribute(.renamed(from: "title")) var caption = ""
}

/// v3: v2 plus a new attribute; the renames stay declared.
final class BookRenamedRated: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique, .renamed(from: "isbn")) var code = ""
    @Attribute(.renamed(from: "title")) var caption = ""
    @Attribute var rating = 3
}

/// A rename from an attribute `BookV1` never had.
final class BookMisrenamed: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute(.renamed(from: "subtitle")) var caption = ""
}

/// A rename to `title`'s name while the stored `Book` keeps `caption`: both exist (see the clash test).
final class BookTitleAndCaption: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute var title = ""
    @Attribute var caption = ""
}

/// A v1 store never held `summary`: the rename adds `blurb`.
final class BookTitleRenamedAndAdded: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute var title = ""
    @Attribute(.renamed(from: "summary")) var blurb = ""
}

final class BookCaptionFromTitle: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute(.renamed(from: "title")) var caption = ""
}

/// `Note`/`Label` of the many-to-many model, `Note` renamed `Memo` and its `title` `heading`.
final class Memo: ManagedObject {
    override class var renamedFrom: String? { "Note" }
    @Attribute(.unique) var slug = ""
    @Attribute(.renamed(from: "title")) var heading = ""
    @Attribute var stars: Int? = nil
    @ToMany(inverse: \MemoLabel.$notes) var labels: [MemoLabel]
}

final class MemoLabel: ManagedObject {
    override class var entityName: String { "Label" }
    @Attribute(.unique) var name = ""
    @ToMany var notes: [Memo]
}

/// `BookV2`/`Review` with the to-one `Review.book` renamed `volume`.
final class BookReviewed: ManagedObject {
    override class var entityName: String { "Book" }
    @Attribute(.unique) var isbn = ""
    @Attribute(.indexed) var title = ""
    @Attribute var subtitle: String? = nil
    @Attribute var rating = 3
    @ToMany(inverse: \ReviewOfVolume.$volume, deleteRule: .cascade) var reviews: [ReviewOfVolume]
}

final class ReviewOfVolume: ManagedObject {
    override class var entityName: String { "Review" }
    @Attribute var text = ""
    @ToOne(deleteRule: .nullify, .renamed(from: "book")) var volume: BookReviewed?
}

/// A migration keeps a renamed attribute's or entity's data by renaming its column or table in the
/// migration's transaction, on both stores; a rename it cannot apply is refused, the store unchanged.
@Suite(.onTestThreads) struct RenameMigrationTests {
    private func seedV1(_ store: TemporaryStore) throws {
        let context = try store.open(version: 1, entities: [BookV1.self]).newContext()
        for (isbn, title) in [("1", "Rio"), ("2", "Lisboa")] {
            let book = context.insert(BookV1.self)
            (book.isbn, book.title) = (isbn, title)
        }
        try context.save()
    }

    @Test(arguments: [Location.file, .postgres])
    func renamedAttributesKeepTheirValuesAndTheirIndexes(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        let v2 = try store.open(version: 2, entities: [BookRenamed.self]).newContext()
        #expect(try v2.all(BookRenamed.self, sortBy: [.ascending(\.$code)]).map(\.caption) == ["Rio", "Lisboa"])
        #expect(try store.columns("Book") == ["id", "code", "caption"])
        #expect(try store.indexes("Book") == ["Book_code_unique"])
        let duplicate = v2.insert(BookRenamed.self)
        duplicate.code = "1"
        #expect(throws: GraphStoreError.self) { try v2.save() }
        // Reopening the migrated store at the same version verifies its schema against the model.
        #expect(try store.open(version: 2, entities: [BookRenamed.self]).newContext().count(FetchRequest<BookRenamed>()) == 2)
    }

    /// v1 → v3 in one step, v3 renaming (as v2 did) and adding: the same store as v1 → v2 → v3.
    @Test(arguments: [Location.file, .postgres])
    func aRenameAndALaterAdditionMigrateInOneStep(_ location: Location) throws {
        let direct = try TemporaryStore(location), stepwise = try TemporaryStore(location)
        try seedV1(direct)
        try seedV1(stepwise)
        _ = try stepwise.open(version: 2, entities: [BookRenamed.self])
        for store in [direct, stepwise] {
            let v3 = try store.open(version: 3, entities: [BookRenamedRated.self]).newContext()
            let books = try v3.all(BookRenamedRated.self, sortBy: [.ascending(\.$code)])
            #expect(books.map(\.caption) == ["Rio", "Lisboa"])
            #expect(books.map(\.rating) == [3, 3])
            #expect(try store.columns("Book") == ["id", "code", "caption", "rating"])
        }
    }

    /// The table, its columns, its join table and that table's columns follow the entity's rename.
    @Test(arguments: [Location.file, .postgres])
    func aRenamedEntityKeepsItsRowsAndItsManyToManyLinks(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let v1 = try store.open(version: 1, entities: [Note.self, Label.self]).newContext()
        let note = v1.insert(Note.self)
        (note.slug, note.title) = ("n1", "First")
        let label = v1.insert(Label.self)
        label.name = "a"
        note.labels.append(label)
        try v1.save()

        let v2 = try store.open(version: 2, entities: [Memo.self, MemoLabel.self]).newContext()
        let memo = try #require(try v2.all(Memo.self).first)
        #expect((memo.slug, memo.heading) == ("n1", "First"))
        #expect(memo.labels.map(\.name) == ["a"])
        #expect(try store.columns("Memo_labels") == ["id", "Memo", "Label"])
        #expect(try store.indexes("Memo").contains("Memo_slug_unique"))
        #expect(try store.open(version: 2, entities: [Memo.self, MemoLabel.self]).newContext().count(FetchRequest<Memo>()) == 1)
    }

    /// A to-one's foreign key column is renamed with its key and its index.
    @Test(arguments: [Location.file, .postgres])
    func aRenamedToOneKeepsItsDestinations(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let v2 = try store.open(version: 2, entities: [BookV2.self, Review.self]).newContext()
        let book = v2.insert(BookV2.self)
        book.isbn = "1"
        let review = v2.insert(Review.self)
        (review.text, review.book) = ("fine", book)
        try v2.save()

        let v3 = try store.open(version: 3, entities: [BookReviewed.self, ReviewOfVolume.self]).newContext()
        #expect(try v3.all(ReviewOfVolume.self).map { $0.volume?.isbn } == ["1"])
        #expect(try store.columns("Review") == ["id", "text", "volume"])
        #expect(try store.indexes("Review") == ["Review_volume_index"])
        try v3.delete(#require(try v3.all(BookReviewed.self).first))
        try v3.save()
        #expect(try store.open(version: 3, entities: [BookReviewed.self, ReviewOfVolume.self]).newContext()
            .count(FetchRequest<ReviewOfVolume>()) == 0)
    }

    @Test(arguments: [Location.file, .postgres])
    func aRenameFromANameTheStoreLacksIsRefused(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        let before = try store.state()
        #expect {
            _ = try store.open(version: 2, entities: [BookMisrenamed.self])
        } throws: { error in
            guard case GraphStoreError.incompatibleStore(let reason) = error else { return false }
            return reason.contains("Book.caption is renamed from subtitle") && reason.contains("holds no Book.subtitle")
                && reason.contains("would drop Book.title")
        }
        #expect(try store.state() == before)
    }

    /// Core Data's rule: a store that predates the attribute gets it added, nothing dropped.
    @Test(arguments: [Location.file, .postgres])
    func aRenameFromANameAStoreNeverHeldAddsTheAttribute(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seedV1(store)
        let context = try store.open(version: 2, entities: [BookTitleRenamedAndAdded.self]).newContext()
        let books = try context.fetch(FetchRequest<BookTitleRenamedAndAdded>(sortBy: [.ascending(\.$isbn)]))
        #expect(!books.isEmpty)
        #expect(books.allSatisfy { $0.blurb == "" }, "added with its default")
        #expect(books.map(\.title).allSatisfy { !$0.isEmpty }, "the stored titles are kept")
    }

    @Test(arguments: [Location.file, .postgres])
    func aRenameToANameTheStoreHoldsIsRefused(_ location: Location) throws {
        let store = try TemporaryStore(location)
        _ = try store.open(version: 1, entities: [BookTitleAndCaption.self])
        let before = try store.state()
        #expect {
            _ = try store.open(version: 2, entities: [BookCaptionFromTitle.self])
        } throws: { error in
            guard case GraphStoreError.incompatibleStore(let reason) = error else { return false }
            return reason.contains("cannot rename Book.title to caption")
        }
        #expect(try store.state() == before)
    }

    @Test func aRenameFromANameTheModelStillDeclaresIsAnInvalidModel() {
        final class Both: ManagedObject {
            @Attribute var title = ""
            @Attribute(.renamed(from: "title")) var caption = ""
        }
        #expect {
            _ = try ManagedObjectModel(version: 1, entities: [Both.self])
        } throws: { error in
            guard case GraphStoreError.invalidModel(let problems) = error else { return false }
            return problems == ["Both.caption is renamed from title, but Both still declares title"]
        }
    }
}
