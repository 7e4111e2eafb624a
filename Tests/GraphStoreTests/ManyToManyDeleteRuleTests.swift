import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Each delete rule on each side of a many-to-many pair (see `Hub` and `Spoke`), read back from a
/// reopened store. Whatever the rules, a deleted object's join rows go with it.
@Suite(.onTestThreads) struct ManyToManyDeleteRuleTests {
    /// Hubs h1, h2 and spokes s1, s2, s3, linked by `link` in the saving context.
    private func seed(_ store: TestStore, _ link: (_ hubs: [String: Hub], _ spokes: [String: Spoke]) -> Void) throws {
        let context = try store.open().newContext()
        var hubs: [String: Hub] = [:], spokes: [String: Spoke] = [:]
        for name in ["h1", "h2"] {
            hubs[name] = context.insert(Hub.self)
            hubs[name]!.name = name
        }
        for name in ["s1", "s2", "s3"] {
            spokes[name] = context.insert(Spoke.self)
            spokes[name]!.name = name
        }
        link(hubs, spokes)
        try context.save()
    }

    /// Deletes the hub or spoke `name` in a new context and saves.
    private func delete(_ name: String, from store: TestStore) throws {
        let context = try store.open().newContext()
        let object: ManagedObject? = try context.all(Hub.self, where: \.$name == name).first
            ?? context.all(Spoke.self, where: \.$name == name).first
        context.delete(try #require(object))
        try context.save()
    }

    /// The whole graph as text, from a fresh context: each object and its three pairs, both sides.
    private func graph(_ store: TestStore) throws -> [String] {
        let context = try store.reader()
        let hubs = try context.all(Hub.self, sortBy: [.ascending(\.$name)]).map { hub in
            "\(hub.name) nullify:\(hub.nullifySpokes.sortedNames(\.name)) cascade:\(hub.cascadeSpokes.sortedNames(\.name)) deny:\(hub.denySpokes.sortedNames(\.name))"
        }
        let spokes = try context.all(Spoke.self, sortBy: [.ascending(\.$name)]).map { spoke in
            "\(spoke.name) deny:\(spoke.denyHubs.sortedNames(\.name)) nullify:\(spoke.nullifyHubs.sortedNames(\.name)) cascade:\(spoke.cascadeHubs.sortedNames(\.name))"
        }
        return hubs + spokes
    }

    private func joinRowCount(_ store: TestStore) throws -> Int {
        let context = try store.reader()
        return try [context.memberCounts(\Hub.$nullifySpokes), context.memberCounts(\Hub.$cascadeSpokes),
                    context.memberCounts(\Hub.$denySpokes)].flatMap(\.values).reduce(0, +)
    }

    @Test(arguments: Location.allCases)
    func nullifyOnTheNamingSideUnlinksTheSpokes(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store) { hubs, spokes in hubs["h1"]!.nullifySpokes = [spokes["s1"]!, spokes["s2"]!] }
        try delete("h1", from: store)
        #expect(try graph(store) == [
            "h2 nullify:[] cascade:[] deny:[]",
            "s1 deny:[] nullify:[] cascade:[]", "s2 deny:[] nullify:[] cascade:[]", "s3 deny:[] nullify:[] cascade:[]",
        ])
        #expect(try joinRowCount(store) == 0)
    }

    /// Cascade deletes the spokes, whose own rules then apply: s2's nullify takes it out of h2.
    @Test(arguments: Location.allCases)
    func cascadeOnTheNamingSideDeletesTheSpokesWhoseRulesApplyInTurn(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store) { hubs, spokes in
            hubs["h1"]!.cascadeSpokes = [spokes["s1"]!, spokes["s2"]!]
            hubs["h2"]!.$cascadeSpokes.insert(spokes["s2"]!)
            hubs["h2"]!.$cascadeSpokes.insert(spokes["s3"]!)
        }
        var changes = ChangeSet()
        let context = try store.open().newContext()
        context.onDidSave { changes = $0 }
        context.delete(try #require(context.all(Hub.self, where: \.$name == "h1").first))
        try context.save()
        #expect(try graph(store) == ["h2 nullify:[] cascade:[\"s3\"] deny:[]", "s3 deny:[] nullify:[\"h2\"] cascade:[]"])
        #expect(changes.deleted(Hub.self).count == 1 && changes.deleted(Spoke.self).count == 2)
        #expect(changes.updated(Hub.self).count == 1)   // h2 lost s2
        #expect(try joinRowCount(store) == 1)
    }

    @Test(arguments: Location.allCases)
    func denyOnTheNamingSideRefusesTheSaveAndLeavesTheStoreAsItWas(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store) { hubs, spokes in
            hubs["h1"]!.denySpokes = [spokes["s1"]!]
            hubs["h1"]!.nullifySpokes = [spokes["s2"]!]
        }
        let before = try graph(store)
        let context = try store.open().newContext()
        let h1 = try #require(context.all(Hub.self, where: \.$name == "h1").first)
        context.delete(h1)
        #expect(throws: GraphStoreError.deleteDenied(object: h1.objectID, relationship: "Hub.denySpokes", count: 1)) { try context.save() }
        #expect(try graph(store) == before)
        #expect(try joinRowCount(store) == 2)
        // Once the spoke leaves, the delete goes through.
        h1.$denySpokes.remove(try #require(context.all(Spoke.self, where: \.$name == "s1").first))
        try context.save()
        #expect(try graph(store).first == "h2 nullify:[] cascade:[] deny:[]")
        #expect(try joinRowCount(store) == 0)
    }

    @Test(arguments: Location.allCases)
    func denyOnTheOtherSideRefusesTheSaveAndLeavesTheStoreAsItWas(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store) { hubs, spokes in hubs["h1"]!.nullifySpokes = [spokes["s1"]!] }
        let before = try graph(store)
        let context = try store.open().newContext()
        let s1 = try #require(context.all(Spoke.self, where: \.$name == "s1").first)
        context.delete(s1)
        #expect(throws: GraphStoreError.deleteDenied(object: s1.objectID, relationship: "Spoke.denyHubs", count: 1)) { try context.save() }
        #expect(try graph(store) == before)
    }

    /// An unsaved link counts for `deny` too.
    @Test func denyCountsUnsavedLinks() throws {
        let store = try TestStore(.memory, entities: manyToManyEntities)
        try seed(store) { _, _ in }
        let context = try store.open().newContext()
        let s1 = try #require(context.all(Spoke.self, where: \.$name == "s1").first)
        try #require(context.all(Hub.self, where: \.$name == "h2").first).$nullifySpokes.insert(s1)
        context.delete(s1)
        #expect(throws: GraphStoreError.deleteDenied(object: s1.objectID, relationship: "Spoke.denyHubs", count: 1)) { try context.save() }
    }

    @Test(arguments: Location.allCases)
    func nullifyOnTheOtherSideUnlinksTheHubs(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store) { hubs, spokes in
            spokes["s1"]!.nullifyHubs = [hubs["h1"]!, hubs["h2"]!]
            spokes["s2"]!.nullifyHubs = [hubs["h1"]!]
        }
        try delete("s1", from: store)
        #expect(try graph(store) == [
            "h1 nullify:[] cascade:[\"s2\"] deny:[]", "h2 nullify:[] cascade:[] deny:[]",
            "s2 deny:[] nullify:[\"h1\"] cascade:[]", "s3 deny:[] nullify:[] cascade:[]",
        ])
        #expect(try joinRowCount(store) == 1)
    }

    /// Cascade from a spoke deletes its hubs; h1's own deny towards the spoke being deleted does not block it.
    @Test(arguments: Location.allCases)
    func cascadeOnTheOtherSideDeletesTheHubs(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store) { hubs, spokes in spokes["s1"]!.cascadeHubs = [hubs["h1"]!] }
        try delete("s1", from: store)
        #expect(try graph(store) == [
            "h2 nullify:[] cascade:[] deny:[]", "s2 deny:[] nullify:[] cascade:[]", "s3 deny:[] nullify:[] cascade:[]",
        ])
        #expect(try joinRowCount(store) == 0)
    }

    /// In memory, a deleted object leaves its partners' lists at the save.
    @Test func partnersForgetADeletedObjectAtTheSave() throws {
        let store = try TestStore(.memory, entities: manyToManyEntities)
        try seed(store) { hubs, spokes in hubs["h1"]!.nullifySpokes = [spokes["s1"]!, spokes["s2"]!] }
        let context = try store.open().newContext()
        let h1 = try #require(context.all(Hub.self, where: \.$name == "h1").first)
        let s1 = try #require(context.all(Spoke.self, where: \.$name == "s1").first)
        #expect(s1.denyHubs.map(\.name) == ["h1"])
        context.delete(h1)
        try context.save()
        #expect(s1.denyHubs.isEmpty)
        #expect(!s1.hasChanges)
    }
}
