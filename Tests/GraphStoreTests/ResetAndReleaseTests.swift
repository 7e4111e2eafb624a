import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `reset()`, and a context letting go of objects nobody holds.
@Suite(.onTestThreads) struct ResetAndReleaseTests {
    @Test(arguments: [Location.file, .postgres])
    func resetForgetsObjectsAndChanges(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let author = context.insert(Author.self)
        author.name = "Ana"
        try context.save()
        let unsaved = context.insert(Author.self)
        unsaved.name = "Bo"
        author.country = "PT"
        context.reset()
        #expect(!context.hasChanges)
        #expect(author.context == nil && author.name == "Ana")
        let fetched = try context.all(Author.self)
        #expect(fetched.count == 1 && fetched[0] !== author && fetched[0].country == nil)
        try context.save()
        #expect(try store.reader().all(Author.self).map(\.name) == ["Ana"])
    }

    @Test func unusedCleanObjectsAreReleasedAndHeldOnesKept() throws {
        let store = try TestStore(.memory)
        let context = try store.open().newContext()
        for index in 0..<400 {
            let book = context.insert(Book.self)
            book.isbn = "\(index)"
        }
        try context.save()
        context.reset()
        weak var released: Book?
        var held: Book?
        var changed: Book?
        do {
            let books = try context.all(Book.self, sortBy: [.ascending(\.$isbn)])
            released = books[0]
            held = books[1]
            changed = books[2]
            changed?.title = "unsaved"
        }
        #expect(released != nil)
        let again = try context.all(Book.self, sortBy: [.ascending(\.$isbn)])  // past the threshold: releases
        #expect(released == nil)
        #expect(again[1] === held)
        #expect(again[2] === changed && again[2].title == "unsaved")
    }

    @Test func retainingRegisteredObjectsKeepsThemAll() throws {
        let store = try TestStore(.memory)
        let context = try store.open().newContext()
        context.retainsRegisteredObjects = true
        for index in 0..<400 { context.insert(Book.self).isbn = "\(index)" }
        try context.save()
        weak var kept: Book?
        do { kept = try context.all(Book.self, sortBy: [.ascending(\.$isbn)])[0] }
        _ = try context.all(Book.self)
        #expect(kept != nil)
    }
}
