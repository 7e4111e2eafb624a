import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Two contexts change one row: a save checks the row still holds what it read.
@Suite(.onTestThreads) struct OptimisticLockingTests {
    /// A store with one author and one book (pages 0), and two contexts on it, each holding the book.
    private func twoContexts(_ location: Location, _ policy: MergePolicy = .error) throws -> (TestStore, ObjectContext, Book, ObjectContext, Book) {
        let store = try TestStore(location)
        let container = try store.open()
        let seed = container.newContext()
        let author = seed.insert(Author.self)
        author.name = "Ana"
        let book = seed.insert(Book.self)
        book.isbn = "1"
        book.title = "original"
        book.author = author
        try seed.save()
        let first = container.newContext(mergePolicy: policy)
        let second = container.newContext(mergePolicy: policy)
        return (store, first, try first.all(Book.self)[0], second, try second.all(Book.self)[0])
    }

    @Test(arguments: [Location.file, .postgres])
    func lostUpdateIsAConflictUnderError(_ location: Location) throws {
        let (store, first, mine, second, theirs) = try twoContexts(location)
        mine.pages += 1
        theirs.pages += 1
        try first.save()
        let error = #expect(throws: GraphStoreError.self) { try second.save() }
        guard case .mergeConflicts(let conflicts) = error else { Issue.record("not a merge conflict: \(String(describing: error))"); return }
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.object == theirs.objectID)
        #expect(conflicts.first?.changedColumns == ["pages"])
        #expect(conflicts.first?.cachedValues["pages"] == .integer(0))
        #expect(conflicts.first?.storedValues?["pages"] == .integer(1))
        #expect(second.hasChanges)

        // Refreshing without the change and doing it again counts both increments.
        try second.refresh(theirs, mergeChanges: false)
        #expect(!second.hasChanges && theirs.pages == 1)
        theirs.pages += 1
        try second.save()
        #expect(try store.reader().all(Book.self).map(\.pages) == [2])
    }

    @Test(arguments: [Location.file, .postgres])
    func refreshMergingChangesKeepsMineAndTakesTheirs(_ location: Location) throws {
        let (store, first, mine, second, theirs) = try twoContexts(location)
        mine.title = "theirs"
        try first.save()
        theirs.pages = 9
        #expect(throws: GraphStoreError.self) { try second.save() }
        try second.refresh(theirs, mergeChanges: true)
        #expect(theirs.title == "theirs" && theirs.pages == 9 && theirs.isUpdated)
        try second.save()
        let reader = try store.reader()
        let stored = try reader.all(Book.self)
        #expect(stored.map(\.title) == ["theirs"] && stored.map(\.pages) == [9])
    }

    @Test(arguments: [MergePolicy.error, .objectTrump, .storeTrump], [Location.file, .postgres])
    func editingARowDeletedElsewhereIsReported(policy: MergePolicy, _ location: Location) throws {
        let (store, first, mine, second, theirs) = try twoContexts(location, policy)
        first.delete(mine)
        try first.save()
        theirs.title = "edited"
        let error = #expect(throws: GraphStoreError.self) { try second.save() }
        guard case .mergeConflicts(let conflicts) = error else { Issue.record("not a merge conflict: \(String(describing: error))"); return }
        #expect(conflicts.map(\.object) == [theirs.objectID])
        #expect(conflicts.first?.storedValues == nil)
        #expect(conflicts.first?.cachedValues["title"] == .text("original"))
        #expect(try store.reader().all(Book.self).isEmpty)
    }

    @Test(arguments: [Location.file, .postgres])
    func deletingARowChangedElsewhereIsAConflictUnderErrorOnly(_ location: Location) throws {
        let (store, first, mine, second, theirs) = try twoContexts(location)
        mine.title = "changed"
        try first.save()
        second.delete(theirs)
        #expect(throws: GraphStoreError.self) { try second.save() }
        #expect(try store.reader().all(Book.self).count == 1)
        second.mergePolicy = .objectTrump
        try second.save()
        #expect(try store.reader().all(Book.self).isEmpty)
    }

    @Test(arguments: [Location.file, .postgres])
    func deletingARowDeletedElsewhereIsNoConflictUnderTrumpAndNotReportedAsThisSavesDelete(_ location: Location) throws {
        let (store, first, mine, second, theirs) = try twoContexts(location)
        first.delete(mine)
        try first.save()
        second.delete(theirs)
        #expect(throws: GraphStoreError.self) { try second.save() }
        second.mergePolicy = .storeTrump
        var changes = ChangeSet()
        second.onDidSave { changes = $0 }
        try second.save()
        #expect(changes.deleted(Book.self).isEmpty && !second.hasChanges)
        #expect(try store.reader().all(Book.self).isEmpty)
    }

    @Test(arguments: [Location.file, .postgres])
    func objectTrumpKeepsMyChangesAndTakesTheStoresOthers(_ location: Location) throws {
        let (store, first, mine, second, theirs) = try twoContexts(location, .objectTrump)
        mine.title = "theirs"
        mine.pages = 5
        try first.save()
        theirs.title = "mine"
        try second.save()
        #expect(theirs.title == "mine" && theirs.pages == 5 && !second.hasChanges)
        let reader = try store.reader()
        let stored = try reader.all(Book.self)
        #expect(stored.map(\.title) == ["mine"] && stored.map(\.pages) == [5])
    }

    @Test(arguments: [Location.file, .postgres])
    func storeTrumpTakesTheStoresChangesAndKeepsMyOthers(_ location: Location) throws {
        let (store, first, mine, second, theirs) = try twoContexts(location, .storeTrump)
        let other = first.insert(Author.self)
        other.name = "Bo"
        mine.title = "theirs"
        mine.author = other
        try first.save()
        let date = Date(timeIntervalSince1970: 1_000_000)
        theirs.title = "mine"
        theirs.published = date
        try second.save()
        #expect(theirs.title == "theirs" && theirs.published == date && theirs.author?.name == "Bo")
        let reader = try store.reader()
        let stored = try reader.all(Book.self)
        #expect(stored.map(\.title) == ["theirs"] && stored.map(\.published) == [date] && stored.map { $0.author?.name } == ["Bo"])
    }

    @Test(arguments: [Location.file, .postgres])
    func unchangedRowsSaveAsBefore(_ location: Location) throws {
        let (store, _, _, second, theirs) = try twoContexts(location)
        theirs.pages = 3
        try second.save()
        theirs.pages = 4  // the snapshot is the value this context wrote
        try second.save()
        #expect(try store.reader().all(Book.self).map(\.pages) == [4])
    }
}
