import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

@Suite("Persistent history: reading, pruning, migrating", .onTestThreads)
struct HistoryReadingTests {
    /// Three saves: p1 by "a", p2 by "b", a caption by "a"; their tokens.
    private func seed(_ container: PersistentContainer) throws -> [HistoryToken] {
        let context = container.newContext()
        var tokens: [HistoryToken] = []
        for (author, code) in [("a", "p1"), ("b", "p2"), ("a", "")] {
            context.transactionAuthor = author
            if code.isEmpty { context.insert(Caption.self).text = "c" } else { context.insert(Picture.self).code = code }
            try context.save()
            tokens.append(try container.currentHistoryToken())
        }
        return tokens
    }

    @Test(arguments: historyLocations)
    func readsAfterATokenByAuthorOrEntity(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        #expect(try container.currentHistoryToken() == .start)
        let tokens = try seed(container)
        #expect(try container.history(after: tokens[0]).transactions.map(\.token) == Array(tokens[1...]))
        #expect(try container.history(after: .start, author: "a").transactions.map(\.token) == [tokens[0], tokens[2]])
        let pictures = try container.history(after: .start, entity: "Picture")
        #expect(pictures.transactions.map(\.token) == [tokens[0], tokens[1]])
        #expect(pictures.token == tokens[2])  // the newest, though it did not match
        let first = try container.history(after: .start, limit: 1)
        #expect(first.transactions.map(\.token) == [tokens[0]] && first.token == tokens[0])
        let none = try container.history(after: tokens[2])
        #expect(none.transactions.isEmpty && none.token == tokens[2])
        #expect(HistoryToken(tokens[1].description) == tokens[1])
    }

    @Test(arguments: historyLocations)
    func deletedHistoryExpiresOlderTokens(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        let tokens = try seed(container)
        try container.deleteHistory(before: tokens[1])
        #expect(throws: GraphStoreError.historyTokenExpired(.start)) { try container.history(after: .start) }
        #expect(try container.history(after: tokens[0]).transactions.map(\.token) == [tokens[1], tokens[2]])

        try container.deleteHistory(before: Date().addingTimeInterval(60))
        #expect(throws: GraphStoreError.historyTokenExpired(tokens[1])) { try container.history(after: tokens[1]) }
        let rest = try container.history(after: tokens[2])
        #expect(rest.transactions.isEmpty && rest.token == tokens[2])
        #expect(try container.currentHistoryToken() == tokens[2])  // tokens never go back
        let context = container.newContext()
        context.insert(Picture.self).code = "p9"
        try context.save()
        #expect(try container.currentHistoryToken() > tokens[2])
    }

    @Test(arguments: historyLocations)
    func aMigratedStoreKeepsItsHistory(_ location: Location) throws {
        let store = try HistoryStore(location)
        let tokens = try seed(try store.open())
        let v2 = try ManagedObjectModel(version: 2, entities: HistoryStore.entities + [Shooter2Extra.self])
        let migrated = try PersistentContainer(model: v2, location: store.temporary.location, tracksHistory: true)
        #expect(try migrated.allHistory().map(\.token) == tokens)
    }

    @Test(arguments: historyLocations)
    func historyOptionsAreNotPartOfTheSchema(_ location: Location) throws {
        let temporary = try TemporaryStore(location == .postgres ? .postgres : .file)
        let plain = try ManagedObjectModel(version: 1, entities: [PlainPicture.self])
        let tracked = try ManagedObjectModel(version: 1, entities: [TrackedPicture.self])
        _ = try PersistentContainer(model: plain, location: temporary.location)
        // Same version, options added: no migration needed, and none refused.
        let container = try PersistentContainer(model: tracked, location: temporary.location, tracksHistory: true)
        let context = container.newContext()
        context.insert(TrackedPicture.self).code = "x"
        try context.save()
        #expect(try container.allHistory().count == 1)
        #expect(SchemaSnapshot(model: plain).encoded() == SchemaSnapshot(model: tracked).encoded())
    }

    @Test(arguments: historyLocations)
    func aContainerWithoutHistoryRecordsNothing(_ location: Location) throws {
        let store = try HistoryStore(location)
        let plain = try store.open(tracksHistory: false)
        let context = plain.newContext()
        context.insert(Picture.self).code = "p1"
        try context.save()
        #expect(try plain.allHistory().isEmpty)
        #expect(try plain.currentHistoryToken() == .start)
    }
}

/// An entity a version 2 adds.
final class Shooter2Extra: ManagedObject {
    @Attribute var note = ""
}

final class PlainPicture: ManagedObject {
    override class var entityName: String { "Pic" }
    @Attribute(.unique) var code = ""
    @Attribute var title = ""
}

final class TrackedPicture: ManagedObject {
    override class var entityName: String { "Pic" }
    @Attribute(.unique, .preservedOnDeletion) var code = ""
    @Attribute(.tracked) var title = ""
}
