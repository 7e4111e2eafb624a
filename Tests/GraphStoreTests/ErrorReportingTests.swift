import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A wrapper GraphStore's field reflection does not see: an optional one.
final class HiddenWrapper: ManagedObject {
    @Attribute var name = ""
    var maybe: Attribute<Int>? = Attribute(wrappedValue: 0)
}

struct QuotaExceeded: Error, Equatable {
    let limit: Int
}

final class Limited: ManagedObject {
    @Attribute var pages = 0
    override func validateForSave() throws {
        if pages > 10 { throw QuotaExceeded(limit: 10) }
    }
}

@Suite(.onTestThreads) struct ErrorReportingTests {
    @Test func localizedDescriptionIsTheDescription() {
        let error: any Error = GraphStoreError.incompatibleStore("written by a newer model")
        #expect(error.localizedDescription == "incompatible store: written by a newer model")
        let failure = GraphStoreError.writeFailed(StoreFailure(kind: .foreignKeyViolation, message: "FOREIGN KEY constraint failed", resultCode: 19, extendedResultCode: 787))
        #expect(failure.localizedDescription == "cannot write to the store: FOREIGN KEY constraint failed (SQLite code 787)")
    }

    /// An error of the app's own type reaches the caller as itself, and nothing is written.
@Test(.onTestThreads, arguments: [Location.file, .postgres])
    func aValidationErrorOfAnotherTypeReachesTheCallerAsItself(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let context = try store.open(entities: [Limited.self]).newContext()
        context.insert(Limited.self).pages = 11
        #expect(throws: QuotaExceeded(limit: 10)) { try context.save() }
        #expect(try store.open(entities: [Limited.self]).newContext().count(FetchRequest<Limited>()) == 0)
    }

    /// A property the reflection misses would silently not be stored: the model refuses it by name.
    @Test func aWrapperTheReflectionMissesFailsTheModel() {
        #expect {
            _ = try ManagedObjectModel(version: 1, entities: [HiddenWrapper.self])
        } throws: { error in
            guard case GraphStoreError.invalidModel(let problems) = error else { return false }
            return problems.count == 1 && problems[0].hasPrefix("HiddenWrapper: GraphStore cannot see the properties maybe")
        }
        // Every entity of the test models is seen whole.
        #expect(throws: Never.self) { _ = try ManagedObjectModel(version: 1, entities: allEntities) }
    }

    /// A file damaged after it was opened (pages past the header overwritten in place) names its path.
    @Test func aStoreFileDamagedWhileOpenIsUnavailableWithItsPath() throws {
        let store = TemporaryStore()
        do {
            let context = try store.open().newContext()
            context.insert(Book.self).isbn = "1"
            try context.save()
        }
        let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]),
                                                location: .file(store.path), readOnly: true)
        let handle = try #require(FileHandle(forWritingAtPath: store.path))
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0x5A, count: Int(try store.bytes().count) - 4096))
        try handle.close()
        #expect {
            _ = try container.newContext().fetch(FetchRequest<Book>())
        } throws: { error in
            guard case GraphStoreError.storeUnavailable(let path, _, _) = error else { return false }
            return path == store.path
        }
    }

@Test(.onTestThreads, arguments: [Location.file, .postgres])
    func aFailedWriteCarriesTheEnginesCodes(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let context = try store.open(entities: allEntities).newContext()
        let parent = context.insert(Parent.self)
        let child = context.insert(Child.self)
        child.noActionParent = parent
        try context.save()
        context.delete(parent)
        let error = #expect(throws: GraphStoreError.self) { try context.save() }
        guard case .writeFailed(let failure) = error else { Issue.record("expected writeFailed, got \(String(describing: error))"); return }
        #expect(failure.kind == .foreignKeyViolation)
        #expect(error?.failureKind == .foreignKeyViolation)
        if location == .postgres {
            #expect(failure.sqlState == "23503")  // foreign_key_violation
            #expect((failure.resultCode, failure.extendedResultCode) == (0, 0))
        } else {
            #expect(failure.resultCode == 19)  // SQLITE_CONSTRAINT
            #expect(failure.extendedResultCode == 787)  // SQLITE_CONSTRAINT_FOREIGNKEY
            #expect(failure.sqlState == nil)
        }
    }
}
