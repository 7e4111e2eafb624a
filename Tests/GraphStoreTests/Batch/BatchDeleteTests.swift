import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// Batch deletes run in the store, never loading the objects, and keep delete rules,
/// `deletesOwnerWhenEmpty` and persistent history, on both stores.
@Suite(.onTestThreads) struct BatchDeleteTests {
    private func seedParents(_ context: ObjectContext, denyKid: Bool) throws -> [String: ObjectID] {
        let p1 = context.insert(Parent.self), p2 = context.insert(Parent.self)
        (p1.name, p2.name) = ("p1", "p2")
        let kept = context.insert(Child.self), cascaded = context.insert(Child.self), other = context.insert(Child.self)
        (kept.name, cascaded.name, other.name) = ("kept", "cascaded", "other")
        (kept.nullifyParent, cascaded.cascadeParent, other.cascadeParent) = (p1, p1, p2)
        if denyKid { context.insert(Child.self).denyParent = p1 }
        try context.save()
        return ["p1": p1.objectID, "kept": kept.objectID, "cascaded": cascaded.objectID]
    }

    @Test(arguments: [Location.file, .postgres])
    func cascadeDeletesAndNullifyClears(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try store.open(entities: [Parent.self, Child.self])
        let ids = try seedParents(container.newContext(), denyKid: false)
        let changes = try container.newContext().batchDelete(FetchRequest<Parent>(predicate: \.$name == "p1"))
        #expect(changes.deleted(Parent.self) == [ids["p1"]!])
        #expect(changes.deleted(Child.self) == [ids["cascaded"]!])
        #expect(changes.updated(Child.self) == [ids["kept"]!])

        let fresh = try store.open(entities: [Parent.self, Child.self]).newContext()
        #expect(try fresh.all(Parent.self).map(\.name) == ["p2"])
        let children = try fresh.all(Child.self, sortBy: [.ascending(\.$name)])
        #expect(children.map(\.name) == ["kept", "other"])
        #expect(children[0].nullifyParent == nil && children[1].cascadeParent?.name == "p2")
    }

    /// One live `.deny` destination refuses the whole batch: nothing is deleted.
    @Test(arguments: [Location.file, .postgres])
    func denyRefusesTheWholeBatch(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try store.open(entities: [Parent.self, Child.self])
        let ids = try seedParents(container.newContext(), denyKid: true)
        #expect {
            try container.newContext().batchDelete(FetchRequest<Parent>())
        } throws: { error in
            guard case GraphStoreError.deleteDenied(let object, let relationship, let count) = error else { return false }
            return object == ids["p1"] && relationship == "Parent.denyKids" && count == 1
        }
        let fresh = container.newContext()
        #expect(try fresh.count(FetchRequest<Parent>()) == 2)
        #expect(try fresh.count(FetchRequest<Child>()) == 4)
        #expect(try fresh.all(Child.self).contains { $0.nullifyParent?.name == "p1" })
    }

    /// Join rows go with the deleted side; the other side stays, counted as updated.
    @Test(arguments: [Location.file, .postgres])
    func manyToManyLinksGoWithTheDeletedSide(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try store.open(entities: [Note.self, Label.self])
        let context = container.newContext()
        let label = context.insert(Label.self)
        label.name = "a"
        for slug in ["n1", "n2", "n3"] {
            let note = context.insert(Note.self)
            note.slug = slug
            if slug != "n3" { note.labels.append(label) }
        }
        try context.save()
        let changes = try container.newContext().batchDelete(FetchRequest<Note>(predicate: .isIn(\.$slug, ["n1", "n2"])))
        #expect(changes.deleted(Note.self).count == 2)
        #expect(changes.updated(Label.self) == [label.objectID])
        let fresh = container.newContext()
        #expect(try fresh.all(Note.self).map(\.slug) == ["n3"])
        #expect(try fresh.all(Label.self).first?.notes.isEmpty == true)
    }

    /// An emptied `deletesOwnerWhenEmpty` owner goes too; history keeps tombstones for every row.
    @Test(arguments: historyLocations)
    func emptiedOwnersGoAndHistoryKeepsTombstones(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open(author: "batch")
        let context = container.newContext()
        let ana = context.insert(Shooter.self), bo = context.insert(Shooter.self)
        (ana.name, bo.name) = ("Ana", "Bo")
        for (code, shooter) in [("p1", ana), ("p2", ana), ("p3", bo)] {
            let picture = context.insert(Picture.self)
            (picture.code, picture.title, picture.shooter) = (code, "T-" + code, shooter)
        }
        let caption = context.insert(Caption.self)
        (caption.text, caption.picture) = ("hello", try #require(ana.pictures.first))
        try context.save()

        let changes = try container.newContext().batchDelete(FetchRequest<Picture>(predicate: .whose(\.$shooter, \.$name == "Ana")))
        #expect(changes.deleted(Shooter.self) == [ana.objectID])
        #expect(changes.deleted(Picture.self).count == 2 && changes.deleted(Caption.self).count == 1)
        let fresh = container.newContext()
        #expect(try fresh.all(Shooter.self).map(\.name) == ["Bo"])
        #expect(try fresh.all(Picture.self).map(\.code) == ["p3"])

        let last = try #require(try container.allHistory().last)
        #expect(last.author == "batch")
        #expect(last.changes.map { "\($0.entity) \($0.textKey) \($0.kind)" }.filter { !$0.hasPrefix("Caption") }.sorted()
            == ["Picture p1 deleted", "Picture p2 deleted", "Shooter Ana deleted"])
        let tombstone = last.changes.first { $0.textKey == "p1" }?.tombstone
        #expect(tombstone == ["code": .text("p1"), "title": .text("T-p1"), "shooter": .text("Ana")])
        #expect(last.changes.filter { $0.entity == "Caption" }.map(\.kind) == [.deleted])
    }
}
