import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `refresh(_:mergeChanges:)` reads an object's row again.
@Suite(.onTestThreads) struct RefreshTests {
    @Test(arguments: [Location.file, .postgres])
    func refreshReloadsToManysKeepingUnsavedMoves(_ location: Location) throws {
        let store = try TestStore(location)
        let container = try store.open()
        let mine = container.newContext()
        let author = mine.insert(Author.self)
        author.name = "Ana"
        try mine.save()
        #expect(author.books.isEmpty)  // loaded, empty

        let other = container.newContext()
        let stored = other.insert(Book.self)
        stored.isbn = "from elsewhere"
        stored.author = try other.existingObject(with: author.objectID, as: Author.self)
        try other.save()

        let unsaved = mine.insert(Book.self)
        unsaved.isbn = "unsaved here"
        unsaved.author = author
        author.country = "PT"
        try mine.refresh(author, mergeChanges: false)
        #expect(author.country == nil)
        #expect(Set(author.books.map(\.isbn)) == ["from elsewhere", "unsaved here"])
        try mine.save()
        let reader = try store.reader()
        #expect(Set(try reader.all(Author.self)[0].books.map(\.isbn)) == ["from elsewhere", "unsaved here"])
    }

    @Test(arguments: [Location.file, .postgres])
    func refreshUndoesAPendingDelete(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let author = context.insert(Author.self)
        author.name = "Ana"
        try context.save()
        context.delete(author)
        try context.refresh(author, mergeChanges: false)
        #expect(!author.isDeleted && !context.hasChanges)
        try context.save()
        #expect(try context.all(Author.self).count == 1)
    }

    @Test(arguments: [Location.file, .postgres])
    func refreshingARowDeletedElsewhereThrows(_ location: Location) throws {
        let store = try TestStore(location)
        let container = try store.open()
        let mine = container.newContext()
        let author = mine.insert(Author.self)
        author.name = "Ana"
        try mine.save()
        let other = container.newContext()
        other.delete(try other.existingObject(with: author.objectID, as: Author.self))
        try other.save()
        #expect(throws: GraphStoreError.objectNotFound(author.objectID)) { try mine.refresh(author, mergeChanges: true) }
    }
}
