import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Deleting several objects in one save: their unloaded to-manys are read for all of them at once
/// (`ObjectContext.loadMembers`), and every delete rule must hold as if each were read alone,
/// in memory right after the save and in the store.
@Suite(.onTestThreads) struct DeleteManyTests {
    /// Parents p1, p2, p3, each with two nullify and two cascade kids named after it (`p1-nullify1`, ...);
    /// with `deny`, p1 and p2 have a deny kid too.
    private func seed(_ store: TestStore, deny: Bool = false) throws {
        let context = try store.open().newContext()
        for name in ["p1", "p2", "p3"] {
            let parent = context.insert(Parent.self)
            parent.name = name
            for (suffix, relationship) in [("nullify", \Parent.$nullifyKids), ("cascade", \Parent.$cascadeKids)] {
                for index in 1...2 {
                    let kid = context.insert(Child.self)
                    kid.name = "\(name)-\(suffix)\(index)"
                    parent[keyPath: relationship].insert(kid)
                }
            }
            if deny && name != "p3" {
                let kid = context.insert(Child.self)
                kid.name = "\(name)-deny"
                parent.denyKids.append(kid)
            }
        }
        try context.save()
    }

    private func kidNames(_ store: TestStore) throws -> [String] {
        try store.reader().all(Child.self).map(\.name).sorted()
    }

    @Test(arguments: Location.allCases)
    func oneToManyRulesHoldForEveryDeletedParent(_ location: Location) throws {
        let store = try TestStore(location, entities: [Parent.self, Child.self])
        try seed(store)
        let context = try store.open().newContext()
        // Loaded kids of p1 and p2, whose parents' lists are not loaded: they must see the nullify.
        let kids = try context.all(Child.self, where: .isIn(\.$name, ["p1-nullify1", "p2-nullify2"]))
        #expect(kids.map { $0.nullifyParent?.name } .compactMap { $0 }.sorted() == ["p1", "p2"])
        for parent in try context.all(Parent.self, where: .isIn(\.$name, ["p1", "p2"])) { context.delete(parent) }
        try context.save()

        #expect(kids.allSatisfy { $0.nullifyParent == nil && !$0.isDeleted })
        #expect(try kidNames(store) == [
            "p1-nullify1", "p1-nullify2", "p2-nullify1", "p2-nullify2", "p3-cascade1", "p3-cascade2", "p3-nullify1", "p3-nullify2",
        ])
        let reader = try store.reader()
        let stored = try reader.all(Child.self).filter { $0.name.hasPrefix("p1-") || $0.name.hasPrefix("p2-") }
        #expect(stored.allSatisfy { $0.nullifyParent == nil }, "\(stored.map(\.name))")
        #expect(try reader.all(Parent.self).map(\.name) == ["p3"])
    }

    @Test(arguments: Location.allCases)
    func aDeniedParentAmongManyRefusesTheWholeSave(_ location: Location) throws {
        let store = try TestStore(location, entities: [Parent.self, Child.self])
        try seed(store, deny: true)
        let context = try store.open().newContext()
        for parent in try context.all(Parent.self) { context.delete(parent) }
        let error = #expect(throws: GraphStoreError.self) { try context.save() }
        guard case .deleteDenied(_, "Parent.denyKids", 1)? = error else {
            Issue.record("expected deleteDenied on Parent.denyKids, got \(String(describing: error))")
            return
        }
        #expect(try store.reader().all(Parent.self).count == 3)
        #expect(try kidNames(store).count == 3 * 4 + 2)
    }

    @Test(arguments: Location.allCases)
    func manyToManyPartnersForgetEveryDeletedObject(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        let seeding = try store.open().newContext()
        var labels: [String: Label] = [:]
        for name in ["a", "b", "c"] {
            labels[name] = seeding.insert(Label.self)
            labels[name]!.name = name
        }
        for (slug, names) in [("n1", ["a", "b"]), ("n2", ["b", "c"]), ("n3", ["c"])] {
            let note = seeding.insert(Note.self)
            note.slug = slug
            note.labels = names.map { labels[$0]! }
        }
        try seeding.save()

        let context = try store.open().newContext()
        let loaded = try context.all(Label.self, sortBy: [.ascending(\.$name)])
        #expect(loaded.map { $0.notes.sortedNames(\.slug) } == [["n1"], ["n1", "n2"], ["n2", "n3"]])
        for note in try context.all(Note.self, where: .isIn(\.$slug, ["n1", "n2"])) { context.delete(note) }
        try context.save()

        #expect(loaded.map { $0.notes.sortedNames(\.slug) } == [[], [], ["n3"]])
        // The reading context is kept: a to-many of an object whose context is gone reads empty.
        let reader = try store.reader()
        let reread = try reader.all(Label.self, sortBy: [.ascending(\.$name)])
        #expect(reread.map { $0.notes.sortedNames(\.slug) } == [[], [], ["n3"]])
    }
}
