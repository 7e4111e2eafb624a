import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// An owner that its members' `prepareForDeletion` deletes with the last of them (photosync's
/// photographer), using ``ToMany/hasLiveMember(besides:)``.
final class Crew: ManagedObject {
    @Attribute(.unique) var name = ""
    @ToMany(inverse: \Sailor.$crew, deleteRule: .cascade, deletesOwnerWhenEmpty: true) var sailors: [Sailor]
}

final class Sailor: ManagedObject {
    @Attribute(.unique) var number = 0
    @ToOne(deleteRule: .nullify) var crew: Crew?

    override func prepareForDeletion() {
        HookLog.current?.record("sailor")
        guard let crew else { return }
        if !crew.$sailors.hasLiveMember(besides: self) { context?.delete(crew) }
    }
}

/// Deleting many members of one owner is linear (issue 24); these pin its semantics: the owner
/// goes with its last member, whatever the order, and stays while one member is left.
@Suite(.onTestThreads) struct LiveMemberTests {
    private static let entities: [ManagedObject.Type] = [Crew.self, Sailor.self]
    private static let size = 300

    /// Saves crew "A" with sailors 0..<size and crew "B" with one sailor, `size`.
    private func seed(_ store: TestStore) throws {
        let context = try store.open().newContext()
        for (name, numbers) in [("A", 0..<Self.size), ("B", Self.size..<Self.size + 1)] {
            let crew = context.insert(Crew.self)
            crew.name = name
            for number in numbers {
                let sailor = context.insert(Sailor.self)
                sailor.number = number
                sailor.crew = crew
            }
        }
        try context.save()
    }

    private func sailors(_ context: ObjectContext, of crew: String) throws -> [Sailor] {
        try #require(context.all(Crew.self, where: \.$name == crew).first).sailors
    }

    @Test(arguments: Location.allCases)
    func deletingEveryMemberDeletesTheOwnerOnceWithOneHookEach(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext()
        let log = HookLog()
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try HookLog.$current.withValue(log) {
            for sailor in try sailors(context, of: "A").reversed() { context.delete(sailor) }
            try context.save()
        }
        #expect(log.count("sailor") == Self.size)
        #expect(changes?.deleted(Crew.self).count == 1)
        #expect(changes?.deleted(Sailor.self).count == Self.size)
        #expect(try store.reader().all(Crew.self).map(\.name) == ["B"])
    }

    @Test(arguments: [0, Self.size / 2, Self.size - 1])
    func anOwnerKeepingOneMemberStaysWhereverThatMemberIs(kept: Int) throws {
        let store = try TestStore(.file, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext()
        for sailor in try sailors(context, of: "A") where sailor.number != kept { context.delete(sailor) }
        try context.save()
        let reader = try store.reader()
        #expect(try reader.all(Crew.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["A", "B"])
        #expect(try reader.all(Sailor.self, where: .whose(\.$crew, \.$name == "A")).map(\.number) == [kept])
    }

    /// The sailors fetched on their own: the crews' lists are never loaded, the store counts them.
    private func unloadedSailors(_ context: ObjectContext, of crew: String) throws -> [Sailor] {
        try context.all(Sailor.self, sortBy: [.ascending(\.$number)], where: .whose(\.$crew, \.$name == crew))
    }

    @Test(arguments: [Location.file, .postgres])
    func withoutLoadingTheListTheOwnerGoesWithItsLastMemberOnly(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try seed(store)
        var context = try store.open().newContext()
        for sailor in try unloadedSailors(context, of: "A").dropFirst() { context.delete(sailor) }
        try context.save()
        #expect(try store.reader().all(Crew.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["A", "B"])
        context = try store.open().newContext()
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        for sailor in try unloadedSailors(context, of: "A") { context.delete(sailor) }
        try context.save()
        #expect(changes?.deleted(Crew.self).count == 1)
        #expect(try store.reader().all(Crew.self).map(\.name) == ["B"])
    }

    @Test func withoutLoadingTheListAMemberMovedAwayCountsAsGoneAndANewOneAsLive() throws {
        let store = try TestStore(.file, entities: Self.entities)
        try seed(store)
        var context = try store.open().newContext()
        let crewB = try #require(context.all(Crew.self, where: \.$name == "B").first)
        var sailors = try unloadedSailors(context, of: "A")
        sailors.removeLast().crew = crewB
        for sailor in sailors { context.delete(sailor) }
        try context.save()
        #expect(try store.reader().all(Crew.self).map(\.name) == ["B"])

        let again = try TestStore(.file, entities: Self.entities)
        try seed(again)
        context = try again.open().newContext()
        let newcomer = context.insert(Sailor.self)
        newcomer.number = 10_000
        newcomer.crew = try #require(context.all(Crew.self, where: \.$name == "A").first)
        for sailor in try unloadedSailors(context, of: "A") where sailor !== newcomer { context.delete(sailor) }
        try context.save()
        #expect(try again.reader().all(Sailor.self, where: .whose(\.$crew, \.$name == "A")).map(\.number) == [10_000])
    }

    /// What `photosync delete --dry-run` reports: the hooks' verdicts, with nothing written.
    @Test(arguments: [Location.file, .postgres])
    func aPreviewDeletesTheEmptiedOwnerInMemoryOnly(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext()
        let crews = try context.all(Crew.self, sortBy: [.ascending(\.$name)])
        for sailor in try unloadedSailors(context, of: "A") { context.delete(sailor) }
        let preview = try context.previewSave()
        #expect(preview.deleted(Crew.self).count == 1)
        #expect(crews.map(\.isDeleted) == [true, false])
        #expect(try store.reader().count(FetchRequest<Sailor>()) == Self.size + 1)
    }

    @Test func aRolledBackDeleteLeavesNothingBehindForTheNextSave() throws {
        let store = try TestStore(.memory, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext()
        let crew = try sailors(context, of: "A")
        for sailor in crew { context.delete(sailor) }
        _ = try context.previewSave()
        context.rollback()
        #expect(try sailors(context, of: "A").count == Self.size)
        for sailor in try sailors(context, of: "A").dropLast() { context.delete(sailor) }
        try context.save()
        #expect(try store.reader().all(Crew.self, sortBy: [.ascending(\.$name)]).map(\.name) == ["A", "B"])
        let last = try #require(try sailors(context, of: "A").first)
        context.delete(last)
        try context.save()
        #expect(try store.reader().all(Crew.self).map(\.name) == ["B"])
    }

    @Test func outsideASaveEveryMemberCounts() throws {
        let store = try TestStore(.memory, entities: Self.entities)
        try seed(store)
        let context = try store.open().newContext()
        let crew = try #require(context.all(Crew.self, where: \.$name == "B").first)
        let only = try #require(crew.sailors.first)
        #expect(crew.$sailors.hasLiveMember())
        #expect(!crew.$sailors.hasLiveMember(besides: only))
        context.delete(only)
        #expect(!crew.$sailors.hasLiveMember())
    }
}
