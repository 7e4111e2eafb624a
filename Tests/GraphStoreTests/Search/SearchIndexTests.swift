import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// A search narrowed by the index finds exactly the rows, in the order, that a scan finds: on a
/// seeded random store, after inserts, edits and deletes (caught up from history), and after the
/// history was pruned past the index (built again).
@Suite(.onTestThreads) struct SearchIndexTests {
    static let words = ["Straße", "STRASSE", "café", "CAFE\u{301}", "日本の夜景", "σοφός", "ΣΟΦΌΣ", "Kelvin", "\u{212A}elvin", "bridge",
                        "Bridge", "oﬀice", "OFFICE", "ǅemal", "zebra", "night", "İstanbul", "a\"b", "x y"]

    @Test(arguments: historyLocations)
    func narrowedSearchesEqualTheScan(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let harness = SearchHarness(container: container)
        defer { harness.remove() }
        var random = SeededRandom(seed: 28)
        try harness.insert(300, &random)
        let index = harness.index()
        let report = try index.prepare()
        #expect(report.built && report.rows == 300)
        try harness.expectScanEquality(index, &random, narrowing: true)

        try harness.insert(40, &random)
        try harness.editTitles(60, &random)
        try harness.deleteSome(30, &random)
        try harness.insert(5, &random)  // SQLite may give a deleted top row's id again
        try harness.expectScanEquality(index, &random, narrowing: true)
        #expect(index.isReady)

        // Another index on the same file and store reopens it; a third store's is built anew.
        let reopened = harness.index()
        #expect(try reopened.prepare().built == false)
        try harness.expectScanEquality(reopened, &random, narrowing: true)

        // Rows a writer without history added (the index cannot know them) are read as well.
        try SearchHarness(container: try store.open(tracksHistory: false)).insert(10, &random)
        try harness.expectScanEquality(reopened, &random, narrowing: true)
    }

    @Test(arguments: historyLocations)
    func prunedHistoryDropsTheIndexUntilItIsBuiltAgain(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let harness = SearchHarness(container: container)
        defer { harness.remove() }
        var random = SeededRandom(seed: 7)
        try harness.insert(120, &random)
        let index = harness.index()
        try index.prepare()
        try harness.editTitles(30, &random)
        try harness.editTitles(30, &random)
        try container.deleteHistory(before: try container.currentHistoryToken())
        // The first edits are gone from history: the index cannot catch up, so searches scan.
        try harness.expectScanEquality(index, &random, narrowing: false)
        #expect(!index.isReady)
        #expect(try index.prepare().built)
        try harness.expectScanEquality(index, &random, narrowing: true)
    }

    @Test(arguments: historyLocations)
    func anotherStoresOrABrokenFileIsBuiltAgain(_ location: Location) throws {
        let (firstStore, otherStore) = (try HistoryStore(location), try HistoryStore(location))
        let first = SearchHarness(container: try firstStore.open())
        defer { first.remove() }
        var random = SeededRandom(seed: 11)
        try first.insert(50, &random)
        try first.index().prepare()
        let other = SearchHarness(container: try otherStore.open(), file: first.file)
        try other.insert(20, &random)
        let index = other.index()
        #expect(try index.prepare().built)
        try other.expectScanEquality(index, &random, narrowing: true)
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: first.file))
        #expect(try other.index().prepare().built)
    }

    /// A fetch whose snapshot is older than the index (built after titles changed) is not narrowed:
    /// the index no longer holds the texts that snapshot sees.
    @Test(arguments: historyLocations)
    func aSnapshotOlderThanTheIndexReadsEveryRow(_ location: Location) throws {
        let store = try HistoryStore(location)
        let harness = SearchHarness(container: try store.open())
        defer { harness.remove() }
        var random = SeededRandom(seed: 5)
        try harness.insert(40, &random)
        let context = harness.container.newContext()
        try context.readingOneSnapshot {
            let before = try context.fetch(FetchRequest<Picture>(predicate: .contains(\.$title, "zebra", caseInsensitive: true))).count
            #expect(before > 0)
            let other = SearchHarness(container: try store.open(), file: harness.file)
            let edit = other.container.newContext()
            for picture in try edit.fetch(FetchRequest<Picture>()) { picture.title = "renamed" }
            try edit.save()
            let index = other.index()
            try index.prepare()
            let candidates = try context.searchCandidates(index, containing: "zebra")
            #expect(candidates == nil)
            #expect(try context.fetch(FetchRequest<Picture>(predicate: .contains(\.$title, "zebra", caseInsensitive: true))).count == before)
        }
    }
}
