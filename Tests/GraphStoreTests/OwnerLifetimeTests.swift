import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// An owner that exists only while it has members (`deletesOwnerWhenEmpty`).
final class Team: ManagedObject {
    @Attribute(.unique) var name = ""
    @ToMany(inverse: \Player.$team, deleteRule: .nullify, deletesOwnerWhenEmpty: true) var players: [Player]
}

final class Player: ManagedObject {
    @Attribute(.unique) var number = 0
    @ToOne var team: Team?
}

@Suite(.onTestThreads) struct OwnerLifetimeTests {
    private static let entities: [ManagedObject.Type] = [Team.self, Player.self]

    /// Saves teams "A" (players 1, 2) and "B" (player 3).
    private func seed(_ store: TestStore) throws {
        let context = try store.open().newContext()
        let teamA = context.insert(Team.self)
        teamA.name = "A"
        let teamB = context.insert(Team.self)
        teamB.name = "B"
        for (number, team) in [(1, teamA), (2, teamA), (3, teamB)] {
            let player = context.insert(Player.self)
            player.number = number
            player.team = team
        }
        try context.save()
    }

    @Test(arguments: Location.allCases)
    func movingTheLastMemberAwayDeletesTheOwnerInTheSameSave(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext()
        let player = try #require(context.all(Player.self, where: \.$number == 3).first)
        player.team = try #require(context.all(Team.self, where: \.$name == "A").first)
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try context.save()

        #expect(changes?.deleted(Team.self).count == 1)
        let reader = try store.reader()
        #expect(try reader.all(Team.self).map(\.name) == ["A"])
        #expect(try reader.all(Player.self, where: .whose(\.$team, \.$name == "A")).count == 3)
    }

    @Test(arguments: Location.allCases)
    func anOwnerThatKeepsMembersStays(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext()
        let player = try #require(context.all(Player.self, where: \.$number == 2).first)
        player.team = try #require(context.all(Team.self, where: \.$name == "B").first)
        try context.save()

        let reader = try store.reader()
        #expect(try reader.all(Team.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["A", "B"])
    }

    @Test(arguments: [Location.file, .postgres])
    func anObjectTrumpMergeThatMovesTheLastMemberDeletesTheOwner(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        let newTeam = context.insert(Team.self)
        newTeam.name = "C"
        let moved = context.insert(Player.self)
        moved.number = 3
        moved.team = newTeam
        try context.save()

        let reader = try store.reader()
        #expect(try reader.all(Team.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["A", "C"])
        #expect(try reader.all(Player.self, where: .whose(\.$team, \.$name == "C")).map(\.number) == [3])
    }

    @Test(arguments: [Location.file, .postgres])
    func previewSaveReportsTheChangesAndWritesNothing(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext(mergePolicy: .objectTrump)
        let newTeam = context.insert(Team.self)
        newTeam.name = "C"
        let moved = context.insert(Player.self)
        moved.number = 3
        moved.team = newTeam
        let added = context.insert(Player.self)
        added.number = 4
        added.team = newTeam

        let preview = try context.previewSave()
        #expect(preview.inserted(Team.self).count == 1)
        #expect(preview.inserted(Player.self).count == 1)
        #expect(preview.updated(Player.self).count == 1)
        #expect(preview.deleted(Team.self).count == 1)
        #expect(context.hasChanges)

        let reader = try store.reader()
        #expect(try reader.all(Team.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["A", "B"])
        #expect(try reader.count(FetchRequest<Player>()) == 3)

        try context.save()
        #expect(try store.reader().all(Team.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["A", "C"])
    }
}
