import Foundation
import GraphStore
import Testing

@Suite struct ContextSaveTests {
    @Test func insertSaveReopenFetch() throws {
        let store = TemporaryStore()
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

    @Test func objectTrumpMergesIntoStoredRows() throws {
        let store = TemporaryStore()
        let container = try store.open()
        let first = container.newContext()
        let author = first.insert(Author.self)
        author.name = "Ana"
        author.country = "BR"
        let book = first.insert(Book.self)
        book.isbn = "1"
        book.title = "Old"
        book.pages = 100
        book.author = author
        try first.save()

        let second = container.newContext(mergePolicy: .objectTrump)
        let again = second.insert(Author.self)
        again.name = "Ana"
        let newBook = second.insert(Book.self)
        newBook.isbn = "1"
        newBook.title = "New"
        newBook.author = again
        let other = second.insert(Book.self)
        other.isbn = "2"
        other.title = "Two"
        other.author = again
        var changes: ChangeSet?
        second.onDidSave { changes = $0 }
        try second.save()
        #expect(changes?.inserted(Book.self).count == 1)
        #expect(changes?.updated(Book.self).count == 1)

        let reader = try store.open().newContext()
        let books = try reader.fetch(FetchRequest<Book>(sortBy: [.ascending(\.$isbn)]))
        #expect(books.map(\.title) == ["New", "Two"])
        #expect(books.map(\.pages) == [100, 0])
        let authors = try reader.fetch(FetchRequest<Author>())
        #expect(authors.count == 1)
        #expect(authors.first?.country == "BR")
        #expect(authors.first?.books.count == 2)
    }

    @Test func errorPolicyReportsConflictsAndKeepsContextUsable() throws {
        let store = TemporaryStore()
        let container = try store.open()
        let context = container.newContext()
        context.insert(Author.self).name = "Ana"
        try context.save()
        let second = container.newContext(mergePolicy: .error)
        second.insert(Author.self).name = "Ana"
        second.insert(Author.self).name = "Bo"
        #expect(throws: GraphStoreError.self) { try second.save() }
        #expect(second.hasChanges)
        second.mergePolicy = .storeTrump
        try second.save()
        #expect(try store.open().newContext().count(FetchRequest<Author>()) == 2)
    }

    @Test func cascadeDeleteRemovesBooks() throws {
        let store = TemporaryStore()
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
