import Foundation
import GraphStore
import Testing

/// `assumeAbsent(_:)`: new unique values inserted without a lookup, and a wrong assumption
/// costing only a second attempt, never a different outcome.
@Suite struct AssumeAbsentTests {
    /// Books "1" (Old) and "2", saved.
    private static func seeded() throws -> TestStore {
        let store = try TestStore(.file)
        let context = try store.open().newContext()
        for (isbn, title) in [("1", "Old"), ("2", "Two")] {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.title = title
        }
        try context.save()
        return store
    }

    private static func titles(_ store: TestStore) throws -> [String: String] {
        let books = try store.reader().fetch(FetchRequest<Book>())
        return Dictionary(uniqueKeysWithValues: books.map { ($0.isbn, $0.title) })
    }

    @Test func newValuesAreInserted() throws {
        let store = try Self.seeded()
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        context.assumeAbsent(\Book.$isbn)
        for isbn in ["3", "4"] {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.title = "New \(isbn)"
        }
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(changes.inserted(Book.self).count == 2)
        #expect(try Self.titles(store) == ["1": "Old", "2": "Two", "3": "New 3", "4": "New 4"])
    }

    /// A value that is stored after all: the save runs again looking it up, and the merge policy
    /// decides as without the assumption (object-trump: the stored row takes the new title).
    @Test func aStoredValueIsMergedAsWithoutTheAssumption() throws {
        let store = try Self.seeded()
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        context.assumeAbsent(\Book.$isbn)
        for (isbn, title) in [("1", "New"), ("5", "Five")] {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.title = title
        }
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(changes.inserted(Book.self).count == 1)
        #expect(changes.updated(Book.self).count == 1)
        #expect(try Self.titles(store) == ["1": "New", "2": "Two", "5": "Five"])
    }

    /// Under `.error` a wrong assumption still ends in the conflict report, with nothing written.
    @Test func underTheErrorPolicyAStoredValueIsAConflict() throws {
        let store = try Self.seeded()
        let context = try store.open().newContext()
        context.assumeAbsent(\Book.$isbn)
        for isbn in ["6", "2"] {
            context.insert(Book.self).isbn = isbn
        }
        do {
            try context.save()
            Issue.record("the save should have failed")
        } catch GraphStoreError.constraintConflicts(let conflicts) {
            #expect(conflicts.map(\.values) == [["2"]])
        }
        #expect(try Self.titles(store) == ["1": "Old", "2": "Two"])
        #expect(context.hasChanges, "the context keeps its changes")
    }

    /// A later save of the same context, without the assumption, merges as usual.
    @Test func aLaterSaveMergesAsUsual() throws {
        let store = try Self.seeded()
        let context = try store.open().newContext(mergePolicy: .storeTrump)
        context.assumeAbsent(\Book.$isbn)
        context.insert(Book.self).isbn = "7"
        try context.save()
        let again = context.insert(Book.self)
        again.isbn = "1"
        again.title = "Ignored"
        try context.save()
        #expect(try Self.titles(store)["1"] == "Old", "store-trump kept the stored title")
    }
}
