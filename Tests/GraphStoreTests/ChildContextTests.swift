import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct ChildContextTests {
    private func seeded(_ location: Location) throws -> (TestStore, ObjectContext) {
        let store = try TestStore(location)
        let parent = try store.open().newContext()
        let author = parent.insert(Author.self)
        author.name = "Ana"
        for isbn in ["1", "2"] {
            let book = parent.insert(Book.self)
            book.isbn = isbn
            book.title = "t\(isbn)"
            book.author = author
        }
        try parent.save()
        return (store, parent)
    }

    @Test(arguments: [Location.file, .postgres])
    func childSavePushesIntoParentNotTheStore(_ location: Location) throws {
        let (store, parent) = try seeded(location)
        let parentBooks = try parent.all(Book.self, sortBy: [.ascending(\.$isbn)])
        let child = parent.newChildContext()
        let books = try child.all(Book.self, sortBy: [.ascending(\.$isbn)])
        #expect(books[0] !== parentBooks[0])
        books[0].title = "changed"
        child.delete(books[1])
        let author = try child.all(Author.self)[0]
        let new = child.insert(Book.self)
        new.isbn = "3"
        new.title = "new"
        new.author = author
        try child.save()
        #expect(!child.hasChanges)

        #expect(parent.hasChanges)
        #expect(parentBooks[0].title == "changed")
        #expect(parentBooks[1].isDeleted)
        let parentAuthor = try parent.all(Author.self)[0]
        #expect(Set(parentAuthor.books.filter { !$0.isDeleted }.map(\.isbn)) == ["1", "3"])  // book 2 leaves at save
        let pushed = try parent.existingObject(with: new.objectID, as: Book.self)
        #expect(pushed.title == "new" && pushed.author === parentAuthor)

        // The store has none of it yet.
        let reader = try store.reader()
        #expect(try reader.all(Book.self, sortBy: [.ascending(\.$isbn)]).map(\.title) == ["t1", "t2"])

        try parent.save()
        #expect(Set(parentAuthor.books.map(\.isbn)) == ["1", "3"])
        let after = try store.reader()
        let stored = try after.all(Book.self, sortBy: [.ascending(\.$isbn)])
        #expect(stored.map(\.title) == ["changed", "new"])
        #expect(stored.map { $0.author?.name } == ["Ana", "Ana"])
    }

    @Test(arguments: [Location.file, .postgres])
    func childSeesParentsUnsavedValues(_ location: Location) throws {
        let (store, parent) = try seeded(location)
        defer { withExtendedLifetime(store) {} }
        let book = try parent.all(Book.self, where: \.$isbn == "1")[0]
        book.title = "unsaved in parent"
        let child = parent.newChildContext()
        #expect(try child.all(Book.self, where: \.$isbn == "1")[0].title == "unsaved in parent")
    }

    @Test(arguments: [Location.file, .postgres])
    func discardingTheChildLeavesTheParentUntouched(_ location: Location) throws {
        let (store, parent) = try seeded(location)
        let parentBook = try parent.all(Book.self, where: \.$isbn == "1")[0]
        do {
            let child = parent.newChildContext()
            let book = try child.all(Book.self, where: \.$isbn == "1")[0]
            book.title = "abandoned"
            child.delete(try child.all(Book.self, where: \.$isbn == "2")[0])
            child.insert(Book.self).isbn = "9"
        }
        #expect(!parent.hasChanges)
        #expect(parentBook.title == "t1")
        #expect(try parent.count(FetchRequest<Book>()) == 2)
        try parent.save()
        #expect(try store.reader().all(Book.self, sortBy: [.ascending(\.$isbn)]).map(\.title) == ["t1", "t2"])
    }
}
