import Foundation
import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

/// An entity a model version removes loses its table, as a removed attribute loses its column, so
/// a later version may declare it again (issue 30, defect 4).
@Suite(.onTestThreads) struct RemovedEntityMigrationTests {
    private let paired: [ManagedObject.Type] = [Label.self, Note.self]
    private let withoutLabel: [ManagedObject.Type] = [PlainNote.self]

    /// v1: notes n1, n2, both linked to labels a and b.
    private func seed(_ store: TemporaryStore) throws {
        let context = try store.open(version: 1, entities: paired).newContext()
        let labels = ["a", "b"].map { name in
            let label = context.insert(Label.self)
            label.name = name
            return label
        }
        for slug in ["n1", "n2"] {
            let note = context.insert(Note.self)
            note.slug = slug
            note.labels = labels
        }
        try context.save()
    }

    @Test(arguments: [Location.file, .postgres])
    func anEntityRemovedThenDeclaredAgainStartsEmpty(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try seed(store)
        #expect(try store.open(version: 2, entities: withoutLabel).newContext().all(PlainNote.self).count == 2)
        let again = try store.open(version: 3, entities: paired)
        let context = again.newContext()
        #expect(try context.all(Label.self).isEmpty)
        #expect(try context.all(Note.self).map { $0.labels.count } == [0, 0])
        let label = context.insert(Label.self)
        label.name = "a"
        label.notes = try context.all(Note.self)
        try context.save()
        let reader = try store.open(version: 3, entities: paired).newContext()
        #expect(try reader.all(Label.self).map { "\($0.name) \($0.notes.count)" } == ["a 2"])
        #expect(throws: GraphStoreError.self) { try store.open(version: 1, entities: paired) }
    }

    @Test func theRemovedEntitysTableLeavesTheFile() throws {
        let store = TemporaryStore()
        try seed(store)
        _ = try store.open(version: 2, entities: withoutLabel)
        #expect(try tables(store).contains("Label") == false)
    }

    /// A store an earlier GraphStore left with a removed entity's table opens when the entity is
    /// declared again: the stale table is dropped and the entity starts empty.
    @Test func aLeftoverTableOfARemovedEntityIsReplaced() throws {
        let store = TemporaryStore()
        try seed(store)
        _ = try store.open(version: 2, entities: withoutLabel)
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: #"CREATE TABLE "Label" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL)"#)
            try db.execute(sql: #"INSERT INTO "Label" ("name") VALUES ('stale')"#)
        }
        let context = try store.open(version: 3, entities: paired).newContext()
        #expect(try context.all(Label.self).isEmpty)
    }

    private func tables(_ store: TemporaryStore) throws -> [String] {
        try DatabaseQueue(path: store.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }
}
