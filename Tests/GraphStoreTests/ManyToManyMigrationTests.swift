import Foundation
import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

// `Label` and `Note` without their pair (the model before it was added, or after it was removed).
final class PlainLabel: ManagedObject {
    override class var entityName: String { "Label" }
    @Attribute(.unique) var name = ""
}

final class PlainNote: ManagedObject {
    override class var entityName: String { "Note" }
    @Attribute(.unique) var slug = ""
    @Attribute var title = ""
    @Attribute var stars: Int? = nil
}

/// A many-to-many pair's join table (`Note_labels`) is created, dropped and verified like an entity's table.
@Suite(.onTestThreads) struct ManyToManyMigrationTests {
    private let plain: [ManagedObject.Type] = [PlainLabel.self, PlainNote.self]
    private let paired: [ManagedObject.Type] = [Label.self, Note.self]

    private func seedPlain(_ store: TemporaryStore) throws {
        let context = try store.open(version: 1, entities: plain).newContext()
        for name in ["a", "b"] { context.insert(PlainLabel.self).name = name }
        for slug in ["n1", "n2"] { context.insert(PlainNote.self).slug = slug }
        try context.save()
    }

    private func tables(_ store: TemporaryStore) throws -> [String] {
        try DatabaseQueue(path: store.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }

    /// Links every note to every label in the given order and saves.
    private func linkAll(_ container: PersistentContainer) throws {
        let context = container.newContext()
        for note in try context.all(Note.self) { note.labels = try context.all(Label.self) }
        try context.save()
    }

    private func pairs(_ container: PersistentContainer) throws -> [String] {
        let context = container.newContext()  // held: objects read their relationships through it
        return try context.all(Note.self).flatMap { note in note.labels.map { "\(note.slug)-\($0.name)" } }.sorted()
    }

    @Test func addingAPairCreatesItsJoinTableAndKeepsTheData() throws {
        let store = TemporaryStore()
        try seedPlain(store)
        #expect(try !tables(store).contains("Note_labels"))
        try linkAll(store.open(version: 2, entities: paired))
        #expect(try tables(store).contains("Note_labels"))
        let reopened = try store.open(version: 2, entities: paired)
        #expect(try pairs(reopened) == ["n1-a", "n1-b", "n2-a", "n2-b"])
        #expect(try reopened.newContext().all(Label.self).map(\.name).sorted() == ["a", "b"])
    }

    /// Removing the pair drops its join table (and its links); declaring it again starts empty.
    @Test func removingAPairDropsItsJoinTableAndAddingItAgainStartsEmpty() throws {
        let store = TemporaryStore()
        try seedPlain(store)
        try linkAll(store.open(version: 2, entities: paired))
        let removed = try store.open(version: 3, entities: plain)
        #expect(try tables(store).contains("Note_labels") == false)
        #expect(try removed.newContext().all(PlainNote.self).count == 2)
        let again = try store.open(version: 4, entities: paired)
        #expect(try pairs(again) == [])
        try linkAll(again)
        #expect(try pairs(store.open(version: 4, entities: paired)) == ["n1-a", "n1-b", "n2-a", "n2-b"])
    }

    @Test func aHandDroppedJoinTableOrItsUniqueIndexIsRefused() throws {
        let store = TemporaryStore()
        try seedPlain(store)
        try linkAll(store.open(version: 2, entities: paired))
        try DatabaseQueue(path: store.path).write { db in try db.execute(sql: #"DROP INDEX "Note_labels_Note_Label_unique""#) }
        #expect(refusal(store)?.contains("unique index on Note_labels(Note, Label) is missing") == true)
        try DatabaseQueue(path: store.path).write { db in try db.execute(sql: #"DROP TABLE "Note_labels""#) }
        #expect(refusal(store)?.contains("table Note_labels is missing") == true)
        #expect(refusal(store, readOnly: true)?.contains("table Note_labels is missing") == true)
    }

    private func refusal(_ store: TemporaryStore, readOnly: Bool = false) -> String? {
        do {
            _ = try PersistentContainer(model: ManagedObjectModel(version: 2, entities: paired), location: .file(store.path), readOnly: readOnly)
            return nil
        } catch GraphStoreError.incompatibleStore(let reason) {
            return reason
        } catch {
            return "unexpected \(error)"
        }
    }

    /// The join table's schema: two NOT NULL foreign keys that cascade, unique together.
    @Test func theJoinTableHoldsTwoCascadingForeignKeys() throws {
        let store = TemporaryStore()
        try seedPlain(store)
        try linkAll(store.open(version: 2, entities: paired))
        let keys = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchAll(db, sql: #"SELECT "from", "table", on_delete FROM pragma_foreign_key_list('Note_labels') ORDER BY "from""#)
                .map { "\($0[0] as String)→\($0[1] as String) \($0[2] as String)" }
        }
        #expect(keys == ["Label→Label CASCADE", "Note→Note CASCADE"])
        let notNull = try DatabaseQueue(path: store.path).read { db in
            try Int.fetchOne(db, sql: #"SELECT count(*) FROM pragma_table_info('Note_labels') WHERE "notnull" = 1"#)
        }
        #expect(notNull == 2)
        // The safety net works: a row deleted behind GraphStore's back takes its join rows along.
        try DatabaseQueue(path: store.path).write { db in try db.execute(sql: #"DELETE FROM "Label" WHERE "name" = 'a'"#) }
        #expect(try pairs(store.open(version: 2, entities: paired)) == ["n1-b", "n2-b"])
    }
}
