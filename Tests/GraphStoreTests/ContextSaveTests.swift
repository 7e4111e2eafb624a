import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct ContextSaveTests {
    @Test(arguments: [Location.file, .postgres])
    func insertSaveReopenFetch(_ location: Location) throws {
        let store = try TemporaryStore(location)
        do {
            let context = try store.open().newContext()
            let author = context.insert(Author.self)
            author.name = "Ana"
            let book = context.insert(Book.self)
            book.isbn = "1"
            book.title = "Rio"
            book.author = author
            #expect(author.books.count == 1)
            try context.save()
            #expect(!context.hasChanges)
            #expect(!book.objectID.isTemporary)
        }
        let context = try store.open().newContext()
        let books = try context.fetch(FetchRequest<Book>(predicate: .whose(\.$author, \.$name == "Ana")))
        #expect(books.map(\.title) == ["Rio"])
        #expect(books.first?.author?.name == "Ana")
        let authors = try context.fetch(FetchRequest<Author>(predicate: .any(\.$books, \.$title == "Rio")))
        #expect(authors.map(\.name) == ["Ana"])
        #expect(authors.first?.books.count == 1)
    }

    @Test(arguments: [Location.file, .postgres])
    func cascadeDeleteRemovesBooks(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try store.open()
        let context = container.newContext()
        let author = context.insert(Author.self)
        author.name = "Ana"
        for index in 0..<3 {
            let book = context.insert(Book.self)
            book.isbn = "\(index)"
            book.author = author
        }
        try context.save()
        let deleter = container.newContext()
        let fetched = try deleter.fetch(FetchRequest<Author>())
        deleter.delete(fetched[0])
        try deleter.save()
        let reader = try store.open().newContext()
        #expect(try reader.count(FetchRequest<Book>()) == 0)
        #expect(try reader.count(FetchRequest<Author>()) == 0)
    }
}
