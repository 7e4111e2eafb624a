import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// A film list sorted by a key that arrives in random order: its index is built after imports.
final class Clip: ManagedObject {
    @Attribute(.unique) var code = ""
    @Attribute(.indexedAfterImport) var sortKey = ""
    @ToOne var roll: Roll?
}

/// What clips belong to: a foreign key, whose checks a copy defers.
final class Roll: ManagedObject {
    @Attribute(.unique) var name = ""
    @ToMany(inverse: \Clip.$roll) var clips: [Clip]
}

/// An index declared `.indexedAfterImport` is absent while an import that began on an empty table
/// runs, built when it ends however it ends, kept by imports into a table with rows, tolerated
/// missing by a read-only open and built by the next writable one, on both engines.
@Suite("Indexes built after imports", .onTestThreads)
struct IndexesAfterImportTests {
    static let index = "Clip_sortKey_index"

    static func open(_ store: TemporaryStore, readOnly: Bool = false) throws -> PersistentContainer {
        try store.open(entities: [Clip.self, Roll.self], readOnly: readOnly)
    }

    static func records(_ codes: some Sequence<Int>) -> ImportRecords<Clip> {
        var reels = ImportRecords(Clip.self, key: \.$code)
        let key = reels.field(\.$sortKey)
        for code in codes { reels.append("\(code)") { $0[key] = "\((code * 7919) % 1000)" } }
        return reels
    }

    /// The import's saves, with what the index looked like during each.
    static func importing(_ container: PersistentContainer, _ store: TemporaryStore, pages: Int, failing: Bool = false) throws -> [Bool] {
        var seen: [Bool] = []
        struct Stop: Error {}
        do {
            try container.importing(mergePolicy: .objectTrump) { session in
                for page in 0..<pages {
                    try session.save(records(page * 10..<(page + 1) * 10))
                    seen.append(try store.indexes("Clip").contains(index))
                }
                if failing { throw Stop() }
            }
        } catch is Stop {}
        return seen
    }

    /// On PostgreSQL, whether the table's columns have statistics (only ANALYZE writes them; CREATE
    /// INDEX counts the rows but leaves them out); SQLite keeps none unless asked: true.
    static func hasStatistics(_ store: TemporaryStore, _ table: String) throws -> Bool {
        guard let schema = store.schema else { return true }
        let rows = try schema.rows("SELECT count(*)::text FROM pg_stats WHERE schemaname = '\(schema.name)' AND tablename = '\(table)'")
        return (Int(rows.first?.first ?? "") ?? 0) > 0
    }

    @Test(arguments: [Location.file, .postgres])
    func anImportIntoAnEmptyTableBuildsTheIndexAtItsEnd(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try Self.open(store)
        #expect(try store.indexes("Clip").contains(Self.index), "a new store has it")
        #expect(try Self.importing(container, store, pages: 3) == [false, false, false])
        #expect(try store.indexes("Clip").contains(Self.index))
        #expect(try Self.hasStatistics(store, "Clip"))
        let sorted = try container.newContext().all(Clip.self, sortBy: [.ascending(\.$sortKey), .ascending(\.$code)])
        #expect(sorted.count == 30 && sorted.map(\.sortKey) == sorted.map(\.sortKey).sorted())
    }

    @Test(arguments: [Location.file, .postgres])
    func anImportIntoATableWithRowsKeepsTheIndexThroughout(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try Self.open(store)
        try container.importing(mergePolicy: .objectTrump) { try $0.save(Self.records(0..<1)) }
        #expect(try Self.importing(container, store, pages: 2) == [true, true])
    }

    @Test(arguments: [Location.file, .postgres])
    func aFailedImportStillBuildsTheIndexAndADryRunNeverDropsIt(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try Self.open(store)
        #expect(try Self.importing(container, store, pages: 1, failing: true) == [false])
        #expect(try store.indexes("Clip").contains(Self.index))
        let fresh = try TemporaryStore(location)
        let dry = try Self.open(fresh)
        try dry.importing(mergePolicy: .objectTrump, dryRun: true) { session in
            try session.save(Self.records(0..<5))
            #expect(try fresh.indexes("Clip").contains(Self.index))
        }
    }

    /// What a process killed mid-import leaves: read-only opens do without the index, the next
    /// writable open builds it.
    @Test(arguments: [Location.file, .postgres])
    func aMissingIndexIsReadWithoutAndBuiltByTheNextWritableOpen(_ location: Location) throws {
        let store = try TemporaryStore(location)
        try Self.open(store).importing(mergePolicy: .objectTrump) { try $0.save(Self.records(0..<20)) }
        try store.alter(#"DROP INDEX "\#(Self.index)""#)
        let reader = try Self.open(store, readOnly: true)
        #expect(try reader.newContext().all(Clip.self).count == 20)
        #expect(try !store.indexes("Clip").contains(Self.index), "a read-only open writes nothing")
        _ = try Self.open(store)
        #expect(try store.indexes("Clip").contains(Self.index))
    }

    @Test(arguments: [Location.file, .postgres])
    func aCopyBuildsTheIndexInTheDestination(_ location: Location) throws {
        let source = try TemporaryStore(.file)
        let container = try Self.open(source)
        try container.importing(mergePolicy: .objectTrump) { try $0.save(Self.records(0..<20)) }
        let context = container.newContext()
        let roll = context.insert(Roll.self)
        roll.name = "r"
        for clip in try context.all(Clip.self) { clip.roll = roll }
        try context.save()
        let destination = try TemporaryStore(location)
        let copied = try container.copyContents(into: Self.open(destination))
        #expect(copied["Clip"] == 20 && copied["Roll"] == 1)
        #expect(try destination.indexes("Clip").contains(Self.index))
        #expect(try Self.hasStatistics(destination, "Clip"))
        let reader = try Self.open(destination).newContext()
        #expect(try reader.all(Clip.self).map { $0.roll?.name } == Array(repeating: "r", count: 20))
    }
}
