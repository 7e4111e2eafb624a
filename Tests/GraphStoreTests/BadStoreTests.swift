import Foundation
import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

final class Setting: ManagedObject {
    @Attribute(.unique) var key = ""
    @Attribute var enabled = false
    @Attribute var count = 0
}

@Suite(.onTestThreads) struct BadStoreTests {
    @Test func randomBytesAreNotAStore() throws {
        let store = TemporaryStore()
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...255) })
        try garbage.write(to: URL(fileURLWithPath: store.path))
        #expect {
            _ = try store.open()
        } throws: { error in
            guard case GraphStoreError.storeUnavailable(let path, _, let kind) = error else { return false }
            return path == store.path && kind == .notADatabase
        }
        #expect(try store.bytes() == garbage)
    }

    /// A failed read is reported as a read, not as a write.
@Test(.onTestThreads, arguments: [Location.file, .postgres])
    func aTableDroppedBehindTheStoresBackFailsReadsAsReads(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let context = try store.open().newContext()
        try store.alter(#"DROP TABLE "Book""#)
        #expect {
            _ = try context.fetch(FetchRequest<Book>())
        } throws: { error in
            guard case GraphStoreError.readFailed(let reason) = error else { return false }
            return location == .postgres ? reason.sqlState == "42P01" : reason.message.contains("no such table")  // undefined_table
        }
    }

    @Test func aForeignSQLiteFileIsIncompatible() throws {
        let store = TemporaryStore()
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        }
        let before = try store.bytes()
        #expect {
            _ = try store.open()
        } throws: { error in
            guard case GraphStoreError.incompatibleStore = error else { return false }
            return true
        }
        #expect(try store.bytes() == before)
    }

    /// PostgreSQL's counterpart of a foreign file: a schema holding other tables is left alone.
    @Test func aSchemaHoldingOtherTablesIsIncompatibleAndLeftAlone() throws {
        let store = try TemporaryStore(.postgres)
        try store.alter("CREATE TABLE customers (id BIGINT PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'Ana')")
        let before = try store.state()
        for readOnly in [false, true] {
            #expect(throws: GraphStoreError.incompatibleStore(readOnly ? "the schema holds no GraphStore store yet"
                                                                       : "the schema holds tables but is not a GraphStore store")) {
                _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]),
                                            location: store.location, readOnly: readOnly)
            }
        }
        #expect(try store.state() == before)
    }

    /// A read-only open creates nothing: an empty schema stays empty.
    @Test func aReadOnlyOpenOfAnEmptySchemaCreatesNothing() throws {
        let store = try TemporaryStore(.postgres)
        #expect(throws: GraphStoreError.incompatibleStore("the schema holds no GraphStore store yet")) {
            _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Author.self, Book.self]),
                                        location: store.location, readOnly: true)
        }
        #expect(try store.state().isEmpty)
    }

    private func seeded(_ location: Location = .file) throws -> TemporaryStore {
        let store = try TemporaryStore(location)
        let context = try store.open(entities: [Setting.self]).newContext()
        let setting = context.insert(Setting.self)
        setting.key = "k"
        setting.enabled = true
        setting.count = 4
        try context.save()
        return store
    }

    /// STRICT tables refuse a value of the wrong storage class.
    @Test func strictTablesRefuseWrongTypesInHandEdits() throws {
        let store = try seeded()
        let queue = try DatabaseQueue(path: store.path)
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "UPDATE Setting SET count = 'many'") }
        }
        #expect(throws: DatabaseError.self) {
            try queue.write { db in try db.execute(sql: "UPDATE Setting SET key = NULL") }
        }
        let context = try store.open(entities: [Setting.self]).newContext()
        #expect(try context.all(Setting.self).map(\.count) == [4])
    }

    /// A Bool is an INTEGER column: 2 gets past STRICT, and fetching reports it.
@Test(.onTestThreads, arguments: [Location.file, .postgres])
    func anOutOfRangeValueIsReportedAsCorrupt(_ location: Location) throws {
        let store = try seeded(location)
        try store.alter(#"UPDATE "Setting" SET "enabled" = 2"#)
        let context = try store.open(entities: [Setting.self]).newContext()
        #expect(throws: GraphStoreError.corruptValue(entity: "Setting", attribute: "enabled", rowID: 1)) {
            _ = try context.all(Setting.self)
        }
        #expect(try context.count(FetchRequest<Setting>()) == 1)
    }
}
