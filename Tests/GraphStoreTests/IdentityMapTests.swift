import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct IdentityMapTests {
    @Test(arguments: [Location.file, .postgres])
    func oneInstancePerRowPerContext(_ location: Location) throws {
        let store = try TestStore(location)
        do {
            let context = try store.open().newContext()
            let author = context.insert(Author.self)
            author.name = "Ana"
            let book = context.insert(Book.self)
            book.isbn = "1"
            book.author = author
            try context.save()
            #expect(try context.all(Author.self)[0] === author)  // the inserted instance, after save
        }
        let context = try store.reader()
        let first = try context.all(Book.self)[0]
        let second = try context.fetch(FetchRequest<Book>(predicate: \.$isbn == "1"))[0]
        #expect(first === second)
        let author = try context.all(Author.self)[0]
        #expect(first.author === author)
        #expect(author.books[0] === first)
        #expect(try context.existingObject(with: first.objectID, as: Book.self) === first)
        // Unsaved values of held instances survive a refetch.
        first.title = "unsaved"
        #expect(try context.all(Book.self)[0].title == "unsaved")
        // Another context has its own instance.
        let other = try store.reader()
        #expect(try other.all(Book.self)[0] !== first)
    }
}

@Suite(.onTestThreads) struct ContextLifetimeTests {
    /// Related objects reference each other; a released context must not leave them alive.
    @Test(arguments: [Location.file, .postgres])
    func objectsAreFreedWithTheirContext(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try store.open()
        weak var weakBook: Book?
        weak var weakAuthor: Author?
        do {
            let context = container.newContext()
            let author = context.insert(Author.self)
            author.name = "Ana"
            let book = context.insert(Book.self)
            book.isbn = "1"
            book.author = author
            try context.save()
            _ = author.books.count
            weakBook = book
            weakAuthor = author
        }
        #expect(weakBook == nil)
        #expect(weakAuthor == nil)
        #expect(try container.newContext().count(FetchRequest<Book>(predicate: .whose(\.$author, \.$name == "Ana"))) == 1)
    }
}
