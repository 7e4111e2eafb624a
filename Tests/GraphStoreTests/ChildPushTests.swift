import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Objects a child inserted and pushed stay tracked: later edits and deletes push too.
@Suite(.onTestThreads) struct ChildPushTests {
    @Test(arguments: [Location.file, .postgres])
    func editAfterPushReachesTheStore(_ location: Location) throws {
        let store = try TestStore(location)
        let parent = try store.open().newContext()
        let child = parent.newChildContext()
        let book = child.insert(Book.self)
        book.isbn = "1"
        book.title = "first"
        try child.save()
        book.title = "second"
        #expect(child.hasChanges)
        try child.save()
        try parent.save()
        #expect(try store.reader().all(Book.self).map(\.title) == ["second"])

        // And again after the parent saved (the copy has a permanent ID now).
        book.pages = 7
        try child.save()
        try parent.save()
        #expect(try store.reader().all(Book.self).map(\.pages) == [7])
    }

    @Test(arguments: [Location.file, .postgres])
    func deleteAfterPushReachesTheStore(_ location: Location) throws {
        let store = try TestStore(location)
        let parent = try store.open().newContext()
        let child = parent.newChildContext()
        let book = child.insert(Book.self)
        book.isbn = "1"
        let kept = child.insert(Book.self)
        kept.isbn = "2"
        try child.save()
        child.delete(book)
        try child.save()
        try parent.save()
        #expect(try store.reader().all(Book.self).map(\.isbn) == ["2"])
    }

    @Test(arguments: [Location.file, .postgres])
    func deleteAfterParentSavedReachesTheStore(_ location: Location) throws {
        let store = try TestStore(location)
        let parent = try store.open().newContext()
        let child = parent.newChildContext()
        let book = child.insert(Book.self)
        book.isbn = "1"
        try child.save()
        try parent.save()
        #expect(try store.reader().all(Book.self).count == 1)
        child.delete(book)
        try child.save()
        try parent.save()
        #expect(try store.reader().all(Book.self).isEmpty)
    }

    @Test(arguments: [Location.file, .postgres])
    func editOfAnObjectTheParentRolledBackFailsThePush(_ location: Location) throws {
        let store = try TestStore(location)
        let parent = try store.open().newContext()
        let child = parent.newChildContext()
        let book = child.insert(Book.self)
        book.isbn = "1"
        try child.save()
        parent.rollback()
        book.title = "lost?"
        #expect(throws: GraphStoreError.objectNotFound(book.objectID)) { try child.save() }
    }
}
