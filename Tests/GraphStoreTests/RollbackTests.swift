import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct RollbackTests {
    private func seeded(_ location: Location) throws -> (TestStore, ObjectContext, Author, Book) {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let author = context.insert(Author.self)
        author.name = "Ana"
        author.country = "BR"
        let book = context.insert(Book.self)
        book.isbn = "1"
        book.title = "Rio"
        book.author = author
        try context.save()
        return (store, context, author, book)
    }

    @Test(arguments: [Location.file, .postgres])
    func rollbackRestoresValuesRemovesInsertsAndRestoresDeletes(_ location: Location) throws {
        let (store, context, author, book) = try seeded(location)
        author.country = "PT"
        book.title = "Changed"
        book.author = nil
        let inserted = context.insert(Book.self)
        inserted.isbn = "2"
        inserted.author = author
        let other = context.insert(Author.self)
        other.name = "Bo"
        context.delete(author)
        #expect(context.hasChanges)

        context.rollback()
        #expect(!context.hasChanges)
        #expect(author.country == "BR" && !author.isDeleted && author.context === context)
        #expect(book.title == "Rio")
        #expect(book.author === author)
        #expect(author.books.map(\.isbn) == ["1"])
        #expect(inserted.context == nil && other.context == nil)
        #expect(try context.all(Book.self).map(\.isbn) == ["1"])

        // Saving again works and writes only new changes.
        book.pages = 3
        try context.save()
        let reader = try store.reader()
        let books = try reader.all(Book.self)
        #expect(books.map(\.title) == ["Rio"] && books.map(\.pages) == [3])
        #expect(books[0].author?.country == "BR")
        #expect(try reader.count(FetchRequest<Author>()) == 1)
    }

    @Test(arguments: [Location.file, .postgres])
    func rollbackAfterAFailedSave(_ location: Location) throws {
        let (store, context, author, book) = try seeded(location)
        let duplicate = context.insert(Author.self)
        duplicate.name = "Ana"
        author.country = "PT"
        let second = context.insert(Book.self)
        second.isbn = "2"
        second.author = author
        context.delete(book)
        // (Deleting stored Ana instead would remove the conflict: deletes are applied first.)
        #expect(throws: GraphStoreError.self) { try context.save() }
        #expect(book.isDeleted && context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(duplicate.context == nil && second.context == nil)
        #expect(!author.isDeleted && !book.isDeleted)
        #expect(author.country == "BR")
        #expect(book.title == "Rio" && book.author === author)
        #expect(author.books.map(\.isbn) == ["1"])

        book.pages = 9
        try context.save()
        let reader = try store.reader()
        #expect(try reader.all(Book.self).map(\.pages) == [9])
        #expect(try reader.all(Author.self).map(\.name) == ["Ana"])
    }

    @Test(arguments: [Location.file, .postgres])
    func rollbackAfterAFailedValidationOfADelete(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let parent = context.insert(Parent.self)
        parent.name = "P"
        let kid = context.insert(Child.self)
        kid.name = "k"
        kid.denyParent = parent
        let nullified = context.insert(Child.self)
        nullified.name = "n"
        nullified.nullifyParent = parent
        try context.save()
        context.delete(parent)
        #expect(throws: GraphStoreError.self) { try context.save() }
        context.rollback()
        #expect(!parent.isDeleted && nullified.nullifyParent === parent && kid.denyParent === parent)
        parent.name = "P2"
        try context.save()
        let reader = try store.reader()
        #expect(try reader.all(Parent.self).map(\.name) == ["P2"])
        #expect(try reader.all(Child.self, where: \.$name == "n")[0].nullifyParent?.name == "P2")
    }
}
