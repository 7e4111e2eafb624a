import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// A bookkeeping row that opted out of history (`keepsHistory` false).
final class Counter: ManagedObject {
    override class var keepsHistory: Bool { false }
    @Attribute(.unique) var name = ""
    @Attribute var value = 0
}

@Suite("Persistent history: entities that opt out", .onTestThreads)
struct HistoryOptOutTests {
    @Test(arguments: historyLocations)
    func anEntityThatOptsOutLeavesNoChanges(_ location: Location) throws {
        let store = try TemporaryStore(location == .postgres ? .postgres : .file)
        let model = try ManagedObjectModel(version: 1, entities: HistoryStore.entities + [Counter.self])
        let container = try PersistentContainer(model: model, location: store.location, tracksHistory: true)
        let context = container.newContext()
        let counter = context.insert(Counter.self)
        counter.name = "pages"
        context.insert(Picture.self).code = "p1"
        try context.save()
        counter.value = 2
        try context.save()
        context.delete(counter)
        try context.save()
        let changes = try container.history(after: .start).transactions.flatMap(\.changes)
        #expect(changes.map(\.entity) == ["Picture"], "\(changes)")
    }
}
