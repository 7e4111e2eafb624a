import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A refused open leaves no `-wal` or `-shm` beside the file: its checks run on a read-only
/// connection, which SQLite does not let remove them.
@Suite(.onTestThreads) struct RefusedOpenLeftoverTests {
    private func companions(_ store: TemporaryStore) -> [String] {
        ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: store.path + $0) }
    }

    private func storeOfVersion2() throws -> TemporaryStore {
        let store = TemporaryStore()
        let context = try store.open(version: 2).newContext()
        context.insert(Author.self).name = "Ana"
        try context.save()
        return store
    }

    @Test func aRefusedWritableOpenLeavesNoWalOrShm() throws {
        let store = try storeOfVersion2()
        #expect(companions(store) == [], "closed cleanly before the test")
        let before = try store.bytes()
        #expect(throws: GraphStoreError.self) { _ = try store.open(version: 1) }
        #expect(companions(store) == [])
        #expect(try store.bytes() == before)
        // The file still opens with its own model.
        #expect(try store.open(version: 2).newContext().count(FetchRequest<Author>()) == 1)
    }

    @Test func aRefusedReadOnlyOpenLeavesNoWalOrShm() throws {
        let store = try storeOfVersion2()
        let before = try store.bytes()
        #expect(throws: GraphStoreError.self) {
            _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]),
                                        location: .file(store.path), readOnly: true)
        }
        #expect(companions(store) == [])
        #expect(try store.bytes() == before)
    }

    /// Files another connection uses are not touched.
    @Test func anOpenStoresFilesStayWhileItIsOpen() throws {
        let store = try storeOfVersion2()
        let open = try store.open(version: 2)
        let context = open.newContext()
        context.insert(Author.self).name = "Bea"
        try context.save()
        #expect(companions(store) == ["-wal", "-shm"])
        #expect(throws: GraphStoreError.self) { _ = try store.open(version: 1) }
        #expect(companions(store) == ["-wal", "-shm"])
        #expect(try context.count(FetchRequest<Author>()) == 2)
    }
}
