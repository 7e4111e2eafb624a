import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A relationship between objects of two contexts: the save throws `foreignObject`, neither
/// context nor the store takes the link.
@Suite(.onTestThreads) struct ForeignObjectTests {
    @Test(arguments: [true, false], [Location.file, .postgres]) func toOneToAnotherContextsObjectFailsTheSave(authorSaved: Bool, _ location: Location) throws {
        let store = try TestStore(location)
        let container = try store.open()
        let first = container.newContext()
        let author = first.insert(Author.self)
        author.name = "Ana"
        if authorSaved { try first.save() }
        let second = container.newContext()
        let book = second.insert(Book.self)
        book.isbn = "1"
        book.author = author

        #expect(throws: GraphStoreError.foreignObject(author.objectID)) { try second.save() }
        #expect(author.books.isEmpty)
        #expect(first.hasChanges == !authorSaved)
        #expect(try store.reader().all(Book.self).isEmpty)

        // Pointing at the second context's own instance of the row fixes the save.
        try first.save()
        book.author = try second.existingObject(with: author.objectID, as: Author.self)
        try second.save()
        let reader = try store.reader()
        let stored = try reader.all(Book.self)
        #expect(stored.map { $0.author?.name } == ["Ana"])
    }

    @Test(arguments: [Location.file, .postgres])
    func toManyInsertOfAnotherContextsObjectLeavesTheOwnersContextAlone(_ location: Location) throws {
        let store = try TestStore(location)
        let container = try store.open()
        let first = container.newContext()
        let author = first.insert(Author.self)
        author.name = "Ana"
        try first.save()
        let second = container.newContext()
        let book = second.insert(Book.self)
        book.isbn = "1"

        author.$books.insert(book)
        #expect(!first.hasChanges)
        #expect(author.books.isEmpty)
        #expect(throws: GraphStoreError.foreignObject(author.objectID)) { try second.save() }
        #expect(try store.reader().all(Book.self).isEmpty)
    }

    @Test(arguments: [Location.file, .postgres])
    func repointingAwayFromAForeignObjectLeavesItAlone(_ location: Location) throws {
        let store = try TestStore(location)
        let container = try store.open()
        let first = container.newContext()
        let author = first.insert(Author.self)
        author.name = "Ana"
        try first.save()
        _ = author.books  // loaded, so a removal would show
        let second = container.newContext()
        let book = second.insert(Book.self)
        book.isbn = "1"
        book.author = author
        book.$author.destinationID = author.objectID  // this context's link to the row, by ID
        #expect(author.books.isEmpty && !first.hasChanges)
        try second.save()
        let reader = try store.reader()
        #expect(try reader.all(Book.self).map { $0.author?.name } == ["Ana"])
    }

    @Test(arguments: [Location.file, .postgres])
    func childContextRefusesAnotherContextsObject(_ location: Location) throws {
        let store = try TestStore(location)
        let container = try store.open()
        let other = container.newContext()
        let author = other.insert(Author.self)
        author.name = "Ana"
        try other.save()
        let parent = container.newContext()
        let child = parent.newChildContext()
        let book = child.insert(Book.self)
        book.isbn = "1"
        book.author = author
        #expect(throws: GraphStoreError.foreignObject(author.objectID)) { try child.save() }
        #expect(!parent.hasChanges)
    }
}
