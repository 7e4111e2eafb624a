import Foundation
@testable import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

/// v3 of MigrationTests' Review: a book's reviews by text, one composite index in place of the
/// foreign key's own.
final class ReviewByBook: ManagedObject {
    override class var entityName: String { "Review" }
    override class var compositeIndexes: [[AnyKeyPath]] { [[\ReviewByBook.$book, \ReviewByBook.$text]] }
    @Attribute var text = ""
    @ToOne var book: BookV2?
}

/// A composite index naming a transient attribute: not a column.
final class BadlyIndexed: ManagedObject {
    override class var compositeIndexes: [[AnyKeyPath]] { [[\BadlyIndexed.$name, \BadlyIndexed.$scratch]] }
    @Attribute var name = ""
    @Attribute(.transient) var scratch = ""
}

@Suite(.onTestThreads) struct CompositeIndexTests {
    /// The query plan is SQLite's; the indexes and the fetch are checked on both engines.
    @Test(arguments: [Location.file, .postgres])
    func aMigrationReplacesTheForeignKeyIndexWithTheCompositeOneAndQueriesUseIt(_ location: Location) throws {
        let store = try TemporaryStore(location)
        do {
            let context = try store.open(version: 2, entities: [BookV2.self, Review.self]).newContext()
            let book = context.insert(BookV2.self)
            book.isbn = "1"
            for text in ["b", "a"] {
                let review = context.insert(Review.self)
                (review.text, review.book) = (text, book)
            }
            try context.save()
        }
        #expect(try store.indexes("Review").contains("Review_book_index"))

        let context = try store.open(version: 3, entities: [BookV2.self, ReviewByBook.self]).newContext()
        let book = try #require(try context.all(BookV2.self).first)
        let reviews = try context.fetch(FetchRequest<ReviewByBook>(predicate: .whose(\.$book, \.$isbn == book.isbn), sortBy: [.ascending(\.$text)]))
        #expect(reviews.map(\.text) == ["a", "b"])
        let found = try store.indexes("Review")
        #expect(found.contains("Review_book_text_index") && !found.contains("Review_book_index"), "\(found)")
        guard location == .file else { return }
        let plan = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM Review WHERE book = 1 ORDER BY text").map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("Review_book_text_index") } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test func aCompositeIndexOnATransientAttributeIsAModelError() throws {
        #expect(throws: GraphStoreError.self) { try ManagedObjectModel(version: 1, entities: [BadlyIndexed.self]) }
    }

    @Test func aToOneNamedByAUniqueKeyWalksTheCompositeIndexInOrder() throws {
        let store = TemporaryStore()
        let model = try ManagedObjectModel(version: 3, entities: [BookV2.self, ReviewByBook.self])
        _ = try PersistentContainer(model: model, location: .file(store.path))
        var byKey = SQLCompiler(model: model)
        let keyed = byKey.whereClause(FetchPredicate<ReviewByBook>.whose(\.$book, \.$isbn == "1").node)
        var byTitle = SQLCompiler(model: model)
        let unkeyed = byTitle.whereClause(FetchPredicate<ReviewByBook>.whose(\.$book, \.$title == "Rio").node)
        #expect(keyed.contains("= (SELECT") && unkeyed.contains("IN (SELECT"), "\(keyed) / \(unkeyed)")
        let plan = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM Review WHERE \(keyed) ORDER BY text",
                             arguments: StatementArguments(byKey.arguments.map(\.databaseValue))).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("Review_book_text_index") } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
