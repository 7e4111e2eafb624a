import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// Batch updates run in the store, reporting the rows they changed; unique attributes are refused.
@Suite(.onTestThreads) struct BatchUpdateTests {
    @Test(arguments: historyLocations)
    func setsTheMatchedRowsAndHistoryTracksThem(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let context = container.newContext()
        for (code, rating) in [("p1", 1), ("p2", 5), ("p3", 1)] {
            let picture = context.insert(Picture.self)
            (picture.code, picture.title, picture.rating) = (code, "old", rating)
        }
        try context.save()
        let holder = try #require(try context.all(Picture.self).first { $0.code == "p1" })

        let changes = try container.newContext().batchUpdate(
            FetchRequest<Picture>(predicate: \.$rating == 1), .set(\.$title, to: "low"), .set(\.$rating, to: 0))
        #expect(changes.updated(Picture.self).count == 2)
        let fresh = container.newContext()
        #expect(try fresh.all(Picture.self, sortBy: [.ascending(\.$code)]).map { "\($0.code) \($0.title) \($0.rating)" }
            == ["p1 low 0", "p2 old 5", "p3 low 0"])
        // A context holding a matched object keeps its values until it refreshes it.
        #expect(holder.title == "old")
        try context.refresh(holder, mergeChanges: false)
        #expect(holder.title == "low")

        let last = try #require(try container.allHistory().last)
        #expect(last.changes.map(\.textKey).sorted() == ["p1", "p3"])
        #expect(last.changes.allSatisfy { $0.kind == .updated && $0.values["title"] == .init(before: .text("old"), after: .text("low")) })
    }

    /// Every matched row would take the same key: refused before anything is written.
    @Test(arguments: [Location.file, .postgres])
    func aUniqueAttributeIsRefusedAndTheStoreUnchanged(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try store.open(entities: [Event.self, Author.self, Book.self])
        let context = container.newContext()
        for id in [1, 2] {
            let event = context.insert(Event.self)
            (event.source, event.externalID, event.title) = ("feed", id, "e\(id)")
        }
        try context.save()
        #expect {
            try container.newContext().batchUpdate(FetchRequest<Event>(), .set(\.$title, to: "x"), .set(\.$externalID, to: 7))
        } throws: { error in
            guard case GraphStoreError.validationFailed(let issues) = error else { return false }
            return issues.count == 1 && issues[0].rule.hasPrefix("Event.externalID is part of a unique constraint")
        }
        #expect(try container.newContext().all(Event.self, sortBy: [.ascending(\.$externalID)]).map { "\($0.externalID) \($0.title)" }
            == ["1 e1", "2 e2"])
    }
}
