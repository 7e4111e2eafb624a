import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Fetches see the context's unsaved inserts, changes and deletes (`includesPendingChanges`).
@Suite(.onTestThreads) struct PendingChangesFetchTests {
    @Test(arguments: [Location.file, .postgres])
    func findOrCreatePortsUnchanged(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        for name in ["Ana", "Bo", "Ana", "Ana", "Bo"] {
            let found = try context.fetch(FetchRequest<Author>(predicate: \.$name == name, limit: 1))
            if found.isEmpty { context.insert(Author.self).name = name }
        }
        try context.save()
        #expect(try store.reader().all(Author.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["Ana", "Bo"])
    }

    @Test func unsavedChangesDecideWhatMatchesAndInWhichOrder() throws {
        let store = try TestStore(.memory)
        let context = try store.open().newContext()
        for (isbn, pages) in [("1", 10), ("2", 20), ("3", 30)] {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.pages = pages
        }
        try context.save()
        let books = try context.all(Book.self, sortBy: [.ascending(\.$isbn)])
        books[0].pages = 99          // changed: now matches > 25 and sorts last
        context.delete(books[2])     // deleted: gone although stored
        let new = context.insert(Book.self)
        new.isbn = "4"
        new.pages = 26

        let request = FetchRequest<Book>(predicate: \.$pages > 25, sortBy: [.ascending(\.$pages)])
        #expect(try context.fetch(request).map(\.isbn) == ["4", "1"])
        #expect(try context.count(request) == 2)
        var windowed = request
        windowed.offset = 1
        windowed.limit = 1
        #expect(try context.fetch(windowed).map(\.isbn) == ["1"])

        var storeOnly = request
        storeOnly.includesPendingChanges = false
        #expect(try context.fetch(storeOnly).map(\.isbn) == ["3"])
        #expect(try context.count(storeOnly) == 1)
    }

    @Test func aWindowSkipsStoredRowsPendingChangesMovedOut() throws {
        let store = try TestStore(.memory)
        let context = try store.open().newContext()
        for index in 0..<10 { context.insert(Book.self).isbn = "\(index)" }
        try context.save()
        let books = try context.all(Book.self, sortBy: [.ascending(\.$isbn)])
        context.delete(books[0])
        books[1].isbn = "z"   // sorts last now
        context.delete(books[2])
        let request = FetchRequest<Book>(sortBy: [.ascending(\.$isbn)], limit: 3, offset: 1)
        #expect(try context.fetch(request).map(\.isbn) == ["4", "5", "6"])
    }

    @Test(arguments: Location.allCases)
    func caseInsensitiveAndNilRulesMatchTheStores(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let saved = context.insert(Author.self)
        saved.name = "ÉCOLE saved"
        try context.save()
        let new = context.insert(Author.self)
        new.name = "école new"
        let noCountry = context.insert(Author.self)
        noCountry.name = "x"
        let request = FetchRequest<Author>(predicate: .contains(\.$name, "école", caseInsensitive: true),
                                           sortBy: [.ascending(\.$name, .caseInsensitive)])
        #expect(try context.fetch(request).map(\.name) == ["école new", "ÉCOLE saved"])
        // `!=` matches nil, as the store does.
        #expect(try context.fetch(FetchRequest<Author>(predicate: \.$country != "PT")).count == 3)
    }
}
