import Foundation
import GraphStore
import Testing

/// Objects a child inserted and pushed stay tracked: later edits and deletes push too.
@Suite struct ChildPushTests {
    @Test func editAfterPushReachesTheStore() throws {
        let store = try TestStore(.file)
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

    @Test func deleteAfterPushReachesTheStore() throws {
        let store = try TestStore(.file)
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

    @Test func deleteAfterParentSavedReachesTheStore() throws {
        let store = try TestStore(.file)
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

    @Test func editOfAnObjectTheParentRolledBackFailsThePush() throws {
        let store = try TestStore(.file)
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
