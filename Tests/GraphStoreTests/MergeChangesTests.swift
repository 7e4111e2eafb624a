import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `mergeChanges(from:)` and `refreshAllObjects()`: a context holding objects sees another's save.
@Suite(.onTestThreads) struct MergeChangesTests {
    /// A context holding a book and its author, and a second context on the same store.
    private struct Pair {
        let store: TestStore
        let mine: ObjectContext
        let other: ObjectContext
        let author: Author
        let book: Book

        init(_ location: Location) throws {
            store = try TestStore(location)
            let container = try store.open()
            mine = container.newContext()
            author = mine.insert(Author.self)
            author.name = "Ana"
            book = mine.insert(Book.self)
            (book.isbn, book.title, book.pages, book.author) = ("b1", "Old title", 100, author)
            try mine.save()
            #expect(author.books.count == 1)  // loaded
            other = mine.container.newContext()
        }

        /// Runs `change` on `other`'s copy of the book and saves; returns the save's change set.
        func otherSaves(_ change: (ObjectContext, Book) throws -> Void) throws -> ChangeSet {
            var changes = ChangeSet()
            other.onDidSave { changes = $0 }
            try change(other, try other.existingObject(with: book.objectID, as: Book.self))
            try other.save()
            return changes
        }
    }

    @Test(arguments: [Location.file, .postgres])
    func updatedObjectsTakeTheStoredValuesKeepingUnsavedOnes(_ location: Location) throws {
        let pair = try Pair(location)
        let changes = try pair.otherSaves { _, book in (book.title, book.pages) = ("New title", 200) }
        pair.book.pages = 150  // unsaved here
        #expect(try pair.mine.fetch(FetchRequest<Book>())[0].title == "Old title")  // stale until merged

        try pair.mine.mergeChanges(from: changes)
        let fetched = try pair.mine.fetch(FetchRequest<Book>())
        #expect(fetched.count == 1 && fetched[0] === pair.book)
        #expect(pair.book.title == "New title" && pair.book.pages == 150 && pair.book.hasChanges)
        try pair.mine.save()  // no merge conflict: the stored values are the expected ones now
        let stored = try pair.other.container.newContext().fetch(FetchRequest<Book>())[0]
        #expect(stored.title == "New title" && stored.pages == 150)
    }

    @Test(arguments: [Location.file, .postgres])
    func deletedObjectsLeaveTheContextAsDeleted(_ location: Location) throws {
        let pair = try Pair(location)
        pair.book.title = "Edited here"
        let changes = try pair.otherSaves { context, book in context.delete(book) }
        try pair.mine.mergeChanges(from: changes)
        #expect(pair.book.isDeleted && pair.book.context == nil)
        #expect(!pair.mine.hasChanges)  // its unsaved edit went with it
        #expect(pair.author.books.isEmpty)
        #expect(try pair.mine.fetch(FetchRequest<Book>()).isEmpty)
        try pair.mine.save()
    }

    @Test(arguments: [Location.file, .postgres])
    func insertedObjectsJoinLoadedToManys(_ location: Location) throws {
        let pair = try Pair(location)
        var changes = ChangeSet()
        pair.other.onDidSave { changes = $0 }
        let added = pair.other.insert(Book.self)
        (added.isbn, added.title, added.author) = ("b2", "Second", try pair.other.existingObject(with: pair.author.objectID, as: Author.self))
        try pair.other.save()
        #expect(pair.author.books.count == 1)  // loaded before: stale until merged
        try pair.mine.mergeChanges(from: changes)
        #expect(Set(pair.author.books.map(\.isbn)) == ["b1", "b2"])
        #expect(try pair.mine.count(FetchRequest<Book>()) == 2)
    }

    @Test(arguments: [Location.file, .postgres])
    func importSessionChangesMergeToo(_ location: Location) throws {
        let pair = try Pair(location)
        var books = ImportRecords(Book.self, key: \.$isbn)
        let title = books.field(\.$title)
        books.append("b1") { $0[title] = "Imported" }
        let result = try pair.mine.container.importing(mergePolicy: .objectTrump) { session in try session.save(books) }
        try pair.mine.mergeChanges(from: result.changes)
        #expect(try pair.mine.fetch(FetchRequest<Book>())[0].title == "Imported")
    }

    @Test(arguments: [Location.file, .postgres])
    func refreshAllObjectsRereadsEveryHeldObject(_ location: Location) throws {
        let pair = try Pair(location)
        _ = try pair.otherSaves { context, book in
            book.title = "New title"
            try context.existingObject(with: pair.author.objectID, as: Author.self).country = "PT"
        }
        pair.author.name = "Ana Lima"  // unsaved here: stays
        try pair.mine.refreshAllObjects()
        #expect(pair.book.title == "New title" && !pair.book.hasChanges)
        #expect(pair.author.country == "PT" && pair.author.name == "Ana Lima" && pair.author.hasChanges)

        _ = try pair.otherSaves { context, book in context.delete(book) }
        try pair.mine.refreshAllObjects()
        #expect(pair.book.isDeleted && pair.book.context == nil)
        #expect(pair.author.books.isEmpty)
        try pair.mine.save()
        #expect(try pair.other.container.newContext().fetch(FetchRequest<Author>())[0].name == "Ana Lima")
    }
}
