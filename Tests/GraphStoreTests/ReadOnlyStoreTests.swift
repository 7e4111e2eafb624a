import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct ReadOnlyStoreTests {
    private func seeded(_ location: Location) throws -> TemporaryStore {
        let store = try TemporaryStore(location)
        let context = try store.open().newContext()
        context.insert(Author.self).name = "Ana"
        try context.save()
        return store
    }

    private func openReadOnly(_ store: TemporaryStore, version: Int = 1, entities: [ManagedObject.Type] = [Author.self, Book.self]) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(version: version, entities: entities), location: store.location, readOnly: true)
    }

    @Test(arguments: [Location.file, .postgres])
    func readsAndRefusesToWrite(_ location: Location) throws {
        let store = try seeded(location)
        let before = try store.state()
        let context = try openReadOnly(store).newContext()
        #expect(try context.fetch(FetchRequest<Author>()).map(\.name) == ["Ana"])
        context.insert(Author.self).name = "Bo"
        #expect {
            try context.save()
        } throws: { error in
            guard case .writeFailed(let failure) = error as? GraphStoreError else { return false }
            return failure.kind == .readOnly
        }
        #expect(try store.state() == before)
        #expect(try store.open().newContext().count(FetchRequest<Author>()) == 1)
    }

    @Test(arguments: [Location.file, .postgres])
    func anOlderModelNeedsAWritableOpenFirst(_ location: Location) throws {
        let store = try seeded(location)
        #expect {
            try openReadOnly(store, version: 2, entities: [Author.self, Book.self, Event.self])
        } throws: { error in
            guard case .incompatibleStore(let reason) = error as? GraphStoreError else { return false }
            return reason.contains("older model")
        }
    }

    @Test func aMissingFileIsUnavailable() throws {
        let store = TemporaryStore()
        #expect {
            try openReadOnly(store)
        } throws: { error in
            guard case .storeUnavailable = error as? GraphStoreError else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }
}
