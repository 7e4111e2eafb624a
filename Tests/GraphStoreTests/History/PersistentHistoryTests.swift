import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite("Persistent history: what a save records", .onTestThreads)
struct PersistentHistoryTests {
    @Test(arguments: historyLocations)
    func contextSavesRecordInsertsUpdatesAndTombstones(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open(author: "default")
        let context = container.newContext()
        context.transactionAuthor = "fetch run 1"
        context.name = "fetcher"
        let ana = context.insert(Shooter.self)
        ana.name = "Ana"
        let picture = context.insert(Picture.self)
        (picture.code, picture.title, picture.shooter) = ("p1", "Harbour", ana)
        try context.save()

        picture.title = "Harbour at dusk"
        picture.rating = 4
        try context.save()
        context.transactionAuthor = nil
        context.delete(picture)  // empties Ana: she goes too
        try context.save()

        let history = try container.allHistory()
        #expect(history.map(\.author) == ["fetch run 1", "fetch run 1", "default"])
        #expect(history.map(\.contextName) == ["fetcher", "fetcher", "fetcher"])
        #expect(history.map(\.token) == history.map(\.token).sorted() && Set(history.map(\.token)).count == 3)
        #expect(history[0].changes.map { "\($0.entity) \($0.textKey) \($0.kind)" }.sorted() == ["Picture p1 inserted", "Shooter Ana inserted"])
        let update = try #require(history[1].changes.only)
        #expect(update.kind == .updated && update.textKey == "p1")
        #expect(update.changedAttributes.sorted() == ["rating", "title"])
        #expect(update.values == ["title": .init(before: .text("Harbour"), after: .text("Harbour at dusk"))])
        let deletes = Dictionary(uniqueKeysWithValues: history[2].changes.map { ($0.entity, $0) })
        #expect(deletes.values.allSatisfy { $0.kind == .deleted })
        #expect(deletes["Picture"]?.tombstone == ["code": .text("p1"), "title": .text("Harbour at dusk"), "shooter": .text("Ana")])
        #expect(deletes["Shooter"]?.tombstone == ["name": .text("Ana")])
        #expect(try container.currentHistoryToken() == history[2].token)
    }

    @Test(arguments: historyLocations)
    func deleteRulesAndRowUpdatesAreRecorded(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let context = container.newContext()
        let picture = context.insert(Picture.self)
        picture.code = "p1"
        let caption = context.insert(Caption.self)
        (caption.text, caption.picture) = ("hello", picture)
        try context.save()
        let captionKey = StoredValue.integer(try #require(caption.objectID.rowID))

        context.update(picture.objectID, .set(\Picture.$title, to: "Set by id"))
        try context.save()
        context.delete(picture)  // cascades to the caption
        try context.save()

        let history = try container.allHistory()
        #expect(history.count == 3)
        #expect(history[1].changes.map(\.values) == [["title": .init(before: .text(""), after: .text("Set by id"))]])
        let deleted = history[2].changes.map { "\($0.entity) \($0.kind)" }.sorted()
        #expect(deleted == ["Caption deleted", "Picture deleted"])
        #expect(history[2].changes.first { $0.entity == "Caption" }?.key == captionKey)
    }

    @Test(arguments: historyLocations)
    func keyChangesParkedOnTheWayAreOneUpdateEach(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let context = container.newContext()
        let (a, b) = (context.insert(Picture.self), context.insert(Picture.self))
        (a.code, b.code) = ("A", "B")
        try context.save()
        (a.code, b.code) = ("B", "A")  // a swap: one key waits on a temporary value
        try context.save()

        let changes = try #require(container.allHistory().last).changes
        #expect(changes.count == 2)
        let moves = Set(changes.map { change in change.values["code"].map { "\($0.before)→\($0.after)" } ?? "none" })
        #expect(moves == ["text(\"A\")→text(\"B\")", "text(\"B\")→text(\"A\")"])
        #expect(changes.allSatisfy { $0.kind == .updated && $0.changedAttributes == ["code"] })
    }

    @Test(arguments: historyLocations)
    func importSavesAreRecordedUnderTheSessionsAuthor(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open(author: "container")
        func batch(_ title: String) -> (ImportRecords<Shooter>, ImportRecords<Picture>) {
            var shooters = ImportRecords(Shooter.self, key: \.$name)
            var pictures = ImportRecords(Picture.self, key: \.$code)
            let (titleField, shooter) = (pictures.field(\.$title), pictures.link(\.$shooter))
            let ana = shooters.append("Ana")
            pictures.append("p1") { $0[titleField] = title; $0[shooter] = ana }
            return (shooters, pictures)
        }
        try container.importing(mergePolicy: .objectTrump) { session in
            session.transactionAuthor = "import"
            let (shooters, pictures) = batch("First")
            _ = try session.save(shooters, pictures)
        }
        try container.importing(mergePolicy: .objectTrump) { session in
            let (shooters, pictures) = batch("Second")
            _ = try session.save(shooters, pictures)
        }
        let history = try container.allHistory()
        #expect(history.map(\.author) == ["import", "container"])
        #expect(history[0].changes.map { "\($0.entity) \($0.kind)" }.sorted() == ["Picture inserted", "Shooter inserted"])
        #expect(history[1].changes.map(\.values) == [["title": .init(before: .text("First"), after: .text("Second"))]])
    }

    @Test(arguments: historyLocations)
    func rolledBackWritesLeaveNoHistory(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let context = container.newContext()
        context.insert(Picture.self).code = "p1"
        try context.save()
        let token = try container.currentHistoryToken()

        context.insert(Picture.self).code = "p1"  // a conflict under .error: the save fails
        #expect(throws: GraphStoreError.self) { try context.save() }
        context.rollback()
        context.insert(Picture.self).code = "p2"
        _ = try context.previewSave()
        context.rollback()
        try container.importing(mergePolicy: .objectTrump, dryRun: true) { session in
            var pictures = ImportRecords(Picture.self, key: \.$code)
            pictures.append("p3")
            _ = try session.save(pictures)
        }
        #expect(try container.currentHistoryToken() == token)
        #expect(try container.allHistory().count == 1)
    }

    @Test(arguments: historyLocations)
    func aSavepointThatThrowsDropsWhatItRecorded(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let entity = EntityDescription.of(Picture.self)
        let row = { (code: String) -> [StoredValue] in [.text(code), .text(""), .integer(0), .null] }
        try container.store.write(deferringForeignKeys: false) { writer in
            _ = try? writer.savepoint { () throws -> Void in
                _ = try writer.insert(into: entity, values: row("dropped"))
                throw CancellationError()
            }
            _ = try writer.insert(into: entity, values: row("kept"))
        }
        #expect(try container.allHistory().flatMap(\.changes).map(\.textKey) == ["kept"])
    }

    @Test func recorderCoalescesEachRowsWrites() throws {
        let entity = EntityDescription.of(Picture.self)
        var recorder = HistoryRecorder()
        recorder.insert(entity, 1, [.text("a"), .text(""), .integer(0), .null])
        recorder.update(entity, 1, columns: ["title", "code"], values: [.text("t"), .text("a2")], before: nil)
        recorder.insert(entity, 2, [.text("b"), .text(""), .integer(0), .null])
        recorder.delete(entity, 2, before: nil)
        let before: [StoredValue] = [.text("c"), .text("old"), .integer(1), .null]
        recorder.update(entity, 3, columns: ["title"], values: [.text("new")], before: before)
        recorder.delete(entity, 3, before: nil)
        recorder.update(entity, 4, columns: ["code"], values: [.text("parked")], before: before)
        recorder.update(entity, 4, columns: ["code"], values: [.text("d")], before: nil)
        let live = recorder.entries.filter { $0.kind != nil }
        #expect(live.map(\.rowID) == [1, 3, 4])
        #expect(live[0].kind == .inserted && live[0].key == .text("a2"))  // an insert keeps its key, as updated
        #expect(live[1].kind == .deleted && live[1].before == before)
        #expect(live[2].kind == .updated && live[2].before == before && live[2].after?[0] == .text("d"))
    }
}

extension Array {
    /// The one element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
