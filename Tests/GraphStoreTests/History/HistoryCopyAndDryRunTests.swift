import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite("Persistent history: copied stores and dry runs", .onTestThreads)
struct HistoryCopyAndDryRunTests {
    /// A copy keeps the history under its tokens (and what was pruned stays expired), then adds
    /// one transaction of the copy's author without changes; later saves come after it.
    @Test(arguments: [(Location.file, Location.postgres), (.postgres, .file)])
    func aCopyKeepsTheHistoryAndAddsItsOwnTransaction(from source: Location, to destination: Location) throws {
        let (fromStore, toStore) = (try HistoryStore(source), try HistoryStore(destination))
        let (from, to) = (try fromStore.open(), try toStore.open())
        let context = from.newContext()
        var tokens: [HistoryToken] = []
        for code in ["p1", "p2", "p3"] {
            context.insert(Picture.self).code = code
            try context.save()
            tokens.append(try from.currentHistoryToken())
        }
        try from.deleteHistory(before: tokens[1])
        try from.copyContents(into: to, author: "copy")

        let copied = try to.history(after: tokens[0]).transactions
        #expect(copied.map(\.token).prefix(2) == tokens[1...] && copied.count == 3, "\(copied)")
        #expect(copied.last?.author == "copy" && copied.last?.changes.isEmpty == true && copied.last!.token > tokens[2])
        #expect(copied.first?.changes.map(\.textKey) == ["p2"])
        #expect(throws: GraphStoreError.historyTokenExpired(.start)) { try to.history(after: .start) }
        let later = to.newContext()
        later.insert(Picture.self).code = "p4"
        try later.save()
        #expect(try to.history(after: copied.last!.token).transactions.map { $0.changes.map(\.textKey) } == [["p4"]])
        withExtendedLifetime((fromStore, toStore)) {}
    }

    /// A dry run's session tells what history its saves would record; nothing is recorded.
    @Test(arguments: historyLocations)
    func aDryRunListsWhatItWouldRecord(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let context = container.newContext()
        context.insert(Picture.self).code = "p1"
        try context.save()
        let token = try container.currentHistoryToken()
        let changes = try container.importing(mergePolicy: .objectTrump, dryRun: true) { session in
            var pictures = ImportRecords(Picture.self, key: \.$code)
            let title = pictures.field(\.$title)
            pictures.append("p1") { $0[title] = "Dunes" }
            pictures.append("p2")
            _ = try session.save(pictures)
            return try session.dryRunChanges()
        }
        #expect(changes.map { "\($0.textKey) \($0.kind)" } == ["p1 updated", "p2 inserted"], "\(changes)")
        #expect(changes.first?.values["title"] == .init(before: .text(""), after: .text("Dunes")))
        #expect(try container.currentHistoryToken() == token)
        let saved = try container.importing(mergePolicy: .objectTrump) { session in try session.dryRunChanges() }
        #expect(saved.isEmpty)
        withExtendedLifetime(store) {}
    }
}
