import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct DeleteRuleTests {
    /// Stored: parent "P" with one kid per to-many ("nullify", "cascade", "deny", "noAction"), and parent "Q".
    private func seed(_ store: TestStore, deny: Bool = false, noAction: Bool = false) throws {
        let context = try store.open().newContext()
        let parent = context.insert(Parent.self)
        parent.name = "P"
        context.insert(Parent.self).name = "Q"
        let nullify = context.insert(Child.self)
        nullify.name = "nullify"
        nullify.nullifyParent = parent
        let cascade = context.insert(Child.self)
        cascade.name = "cascade"
        cascade.cascadeParent = parent
        if deny {
            let kid = context.insert(Child.self)
            kid.name = "deny"
            kid.denyParent = parent
        }
        if noAction {
            let kid = context.insert(Child.self)
            kid.name = "noAction"
            kid.noActionParent = parent
        }
        try context.save()
    }

    private func parent(_ context: ObjectContext, _ name: String = "P") throws -> Parent {
        try context.all(Parent.self, where: \.$name == name)[0]
    }

    @Test(arguments: Location.allCases)
    func nullifyAndCascade(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store)
        let context = try store.open().newContext()
        let parent = try parent(context)
        let nullified = parent.nullifyKids[0]
        let cascaded = parent.cascadeKids[0]
        context.delete(parent)
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(nullified.nullifyParent == nil)
        #expect(!nullified.isDeleted && nullified.context === context)
        #expect(cascaded.context == nil)  // deleted with its parent
        #expect(changes?.deleted(Parent.self) == [parent.objectID])
        #expect(changes?.deleted(Child.self).count == 1)

        let reader = try store.reader()
        #expect(try reader.all(Parent.self).map(\.name) == ["Q"])
        let kids = try reader.all(Child.self)
        #expect(kids.map(\.name) == ["nullify"])
        #expect(kids[0].nullifyParent == nil)
    }

    @Test(arguments: Location.allCases)
    func denyFailsNamingTheRelationshipAndWritesNothing(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store, deny: true)
        let context = try store.open().newContext()
        let parent = try parent(context)
        context.delete(parent)
        #expect(throws: GraphStoreError.deleteDenied(object: parent.objectID, relationship: "Parent.denyKids", count: 1)) {
            try context.save()
        }
        let reader = try store.reader()
        #expect(try reader.count(FetchRequest<Parent>()) == 2)
        #expect(try reader.count(FetchRequest<Child>()) == 3)
        #expect(try reader.all(Child.self, where: \.$name == "nullify")[0].nullifyParent?.name == "P")

        // Empty the denying relationship, and the same context saves.
        parent.denyKids[0].denyParent = nil
        try context.save()
        let after = try store.reader()
        #expect(try after.all(Parent.self).map(\.name) == ["Q"])
        #expect(Set(try after.all(Child.self).map(\.name)) == ["nullify", "deny"])
    }

    @Test(arguments: [Location.file, .postgres])
    func denyAllowsDeleteWhenTheDestinationIsDeletedToo(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store, deny: true)
        let context = try store.open().newContext()
        let parent = try parent(context)
        context.delete(parent.denyKids[0])
        context.delete(parent)
        try context.save()
        #expect(try store.reader().all(Child.self).map(\.name) == ["nullify"])
    }

    /// noAction leaves the kid pointing at the deleted parent; the store's foreign key then fails the
    /// save (nothing written) until the caller fixes the kid.
    @Test(arguments: Location.allCases)
    func noActionFailsOnTheForeignKeyUntilFixed(_ location: Location) throws {
        let store = try TestStore(location)
        try seed(store, noAction: true)
        let context = try store.open().newContext()
        let parent = try parent(context)
        let kid = parent.noActionKids[0]
        context.delete(parent)
        let error = #expect(throws: GraphStoreError.self) { try context.save() }
        guard case .writeFailed(let reason) = error else { Issue.record("expected writeFailed, got \(String(describing: error))"); return }
        #expect(reason.message.localizedCaseInsensitiveContains("foreign key"))
        if location == .postgres {
            #expect(reason.sqlState == "23503")  // foreign_key_violation
            #expect(reason.description.hasSuffix("(SQLSTATE 23503)"))
        } else {
            #expect(reason.description.hasSuffix("(SQLite code 787)"))  // SQLITE_CONSTRAINT_FOREIGNKEY: the extended code is named
            #expect((reason.resultCode, reason.extendedResultCode) == (19, 787))
        }
        #expect(kid.noActionParent === parent)  // untouched by the rule
        let reader = try store.reader()
        #expect(try reader.count(FetchRequest<Parent>()) == 2)
        #expect(try reader.count(FetchRequest<Child>()) == 3)

        kid.noActionParent = nil
        try context.save()
        let after = try store.reader()
        #expect(try after.all(Parent.self).map(\.name) == ["Q"])
        #expect(try after.all(Child.self, where: \.$name == "noAction")[0].noActionParent == nil)
    }

    @Test(arguments: Location.allCases)
    func deletingTheToOneSideLeavesTheInverseToMany(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let author = context.insert(Author.self)
        author.name = "Ana"
        for isbn in ["1", "2"] {
            let book = context.insert(Book.self)
            book.isbn = isbn
            book.author = author
        }
        try context.save()
        let doomed = author.books.first { $0.isbn == "1" }!
        context.delete(doomed)
        try context.save()
        #expect(author.books.map(\.isbn) == ["2"])
        let reader = try store.reader()
        #expect(try reader.all(Author.self)[0].books.map(\.isbn) == ["2"])
    }

    @Test(arguments: [Location.file, .postgres])
    func deletingAnUnsavedObjectJustForgetsIt(_ location: Location) throws {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        let author = context.insert(Author.self)
        author.name = "Ana"
        let book = context.insert(Book.self)
        book.isbn = "1"
        book.author = author
        context.delete(author)  // cascades to the new book at save
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(changes == nil || changes?.isEmpty == true)
        #expect(!context.hasChanges)
        #expect(try store.reader().count(FetchRequest<Book>()) == 0)
    }
}
