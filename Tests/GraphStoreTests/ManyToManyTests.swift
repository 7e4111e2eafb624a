import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Many-to-many relationships: both sides in step in memory, join rows written by saves and read
/// back from a reopened store, change sets, rollback, refresh, child contexts, merges.
@Suite(.onTestThreads) struct ManyToManyTests {
    /// Labels and notes by name, saved: `labels` "a", "b", "c"; notes "n1", "n2", "n3"; `links` as (note, label).
    private func seed(_ store: TestStore, links: [(String, String)] = []) throws {
        let context = try store.open().newContext()
        var labels: [String: Label] = [:]
        for name in ["a", "b", "c"] {
            labels[name] = context.insert(Label.self)
            labels[name]!.name = name
        }
        var notes: [String: Note] = [:]
        for slug in ["n1", "n2", "n3"] {
            notes[slug] = context.insert(Note.self)
            notes[slug]!.slug = slug
        }
        for (note, label) in links { notes[note]!.$labels.insert(labels[label]!) }
        try context.save()
    }

    private func note(_ slug: String, _ context: ObjectContext) throws -> Note {
        try #require(context.all(Note.self, where: \.$slug == slug).first)
    }

    private func label(_ name: String, _ context: ObjectContext) throws -> Label {
        try #require(context.all(Label.self, where: \.$name == name).first)
    }

    /// Every pair as "note-label", read from both sides of a fresh context (they must agree).
    private func storedPairs(_ store: TestStore) throws -> [String] {
        let context = try store.reader()
        let fromNotes = try context.all(Note.self).flatMap { note in note.labels.map { "\(note.slug)-\($0.name)" } }.sorted()
        let fromLabels = try context.all(Label.self).flatMap { label in label.notes.map { "\($0.slug)-\(label.name)" } }.sorted()
        #expect(fromNotes == fromLabels)
        return fromNotes
    }

    @Test(arguments: Location.allCases)
    func linksAreSeenOnBothSidesAtOnceAndReadBackAfterReopening(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        let context = try store.open().newContext()
        let (a, b) = (context.insert(Label.self), context.insert(Label.self))
        (a.name, b.name) = ("a", "b")
        let (n1, n2) = (context.insert(Note.self), context.insert(Note.self))
        (n1.slug, n2.slug) = ("n1", "n2")
        n1.labels = [a, b]
        b.$notes.insert(n2)
        #expect(a.notes.map(\.slug) == ["n1"])
        #expect(b.notes.sortedNames(\.slug) == ["n1", "n2"])
        #expect(n2.labels.map(\.name) == ["b"])
        try context.save()
        #expect(try storedPairs(store) == ["n1-a", "n1-b", "n2-b"])
    }

    /// The first read of an unloaded side loads it from the join table, with this context's
    /// unsaved changes of the other side applied; the save reports both objects as updated.
    @Test(arguments: Location.allCases)
    func unloadedSidesLoadFromTheJoinTableWithUnsavedChangesOnTop(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a"), ("n1", "b"), ("n2", "b")])
        let context = try store.open().newContext()
        let n1 = try note("n1", context)
        let (a, c) = (try label("a", context), try label("c", context))
        n1.$labels.remove(a)          // neither list loaded yet
        c.$notes.insert(n1)
        #expect(a.notes.isEmpty)
        #expect(n1.labels.sortedNames(\.name) == ["b", "c"])
        #expect(n1.isUpdated && a.isUpdated && c.isUpdated)
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(changes.updated(Note.self) == [n1.objectID])
        #expect(changes.updated(Label.self) == [a.objectID, c.objectID])
        #expect(changes.inserted.isEmpty && changes.deleted.isEmpty)
        #expect(try storedPairs(store) == ["n1-b", "n1-c", "n2-b"])
    }

    /// A link made twice, or an unlink of a pair never stored, writes nothing and reports nothing.
    @Test(arguments: Location.allCases)
    func linkingAStoredPairAgainWritesNothing(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let context = try store.open().newContext()
        try note("n1", context).$labels.insert(try label("a", context))
        try note("n2", context).$labels.remove(try label("a", context))
        var changes: ChangeSet?
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(changes?.isEmpty == true)
        #expect(try storedPairs(store) == ["n1-a"])
        let counts = try store.reader().memberCounts(\Label.$notes)
        #expect(counts.values.sorted() == [1])
    }

    @Test(arguments: Location.allCases)
    func memberCountsCountJoinRowsPerOwner(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a"), ("n1", "b"), ("n2", "b"), ("n3", "b")])
        let context = try store.reader()
        let (a, b) = (try label("a", context), try label("b", context))
        #expect(try context.memberCounts(\Label.$notes) == [a.objectID: 1, b.objectID: 3])
        #expect(try context.memberCounts(\Note.$labels) == [try note("n1", context).objectID: 2, try note("n2", context).objectID: 1,
                                                            try note("n3", context).objectID: 1])
    }

    @Test(arguments: Location.allCases)
    func rollbackDropsUnsavedLinksOnBothSides(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let context = try store.open().newContext()
        let (n1, n2, a) = (try note("n1", context), try note("n2", context), try label("a", context))
        #expect(a.notes.map(\.slug) == ["n1"])
        n1.$labels.remove(a)
        n2.$labels.insert(a)
        #expect(a.notes.map(\.slug) == ["n2"])
        context.rollback()
        #expect(!context.hasChanges)
        #expect(a.notes.map(\.slug) == ["n1"])
        #expect(n1.labels.map(\.name) == ["a"])
        #expect(n2.labels.isEmpty)
        try context.save()
        #expect(try storedPairs(store) == ["n1-a"])
    }

    @Test(arguments: Location.allCases)
    func refreshWithoutMergingDropsTheObjectsUnsavedLinksOnBothSides(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let context = try store.open().newContext()
        let (n1, b) = (try note("n1", context), try label("b", context))
        n1.$labels.insert(b)
        #expect(b.notes.map(\.slug) == ["n1"])
        try context.refresh(n1, mergeChanges: false)
        #expect(n1.labels.map(\.name) == ["a"])
        #expect(b.notes.isEmpty)
        try context.save()
        #expect(try storedPairs(store) == ["n1-a"])
    }

    /// With merging, links saved elsewhere appear and this context's unsaved ones stay.
    @Test(arguments: Location.allCases)
    func refreshMergingKeepsUnsavedLinksOnTopOfStoredOnes(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let context = try store.open().newContext()
        let n1 = try note("n1", context)
        #expect(n1.labels.map(\.name) == ["a"])
        n1.$labels.insert(try label("c", context))
        let other = try store.open().newContext()
        try note("n1", other).$labels.insert(try label("b", other))
        try other.save()
        try context.refresh(n1, mergeChanges: true)
        #expect(n1.labels.sortedNames(\.name) == ["a", "b", "c"])
        try context.save()
        #expect(try storedPairs(store) == ["n1-a", "n1-b", "n1-c"])
    }

    @Test(arguments: Location.allCases)
    func aChildContextPushesLinksAndUnlinksToItsParent(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let parent = try store.open().newContext()
        let child = parent.newChildContext()
        let n1 = try note("n1", child)
        n1.$labels.remove(try label("a", child))
        let fresh = child.insert(Label.self)
        fresh.name = "new"
        fresh.$notes.insert(n1)
        try child.save()
        #expect(try storedPairs(store) == ["n1-a"])
        let parentNote = try note("n1", parent)
        #expect(parentNote.labels.map(\.name) == ["new"])
        #expect(try label("a", parent).notes.isEmpty)
        try parent.save()
        #expect(try storedPairs(store) == ["n1-new"])
    }

    /// A child's delete reaches the parent, whose save applies the rules and removes the join rows.
    @Test(arguments: Location.allCases)
    func aChildsDeleteRemovesTheJoinRowsAtTheParentsSave(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a"), ("n2", "a"), ("n2", "b")])
        let parent = try store.open().newContext()
        let a = try label("a", parent)
        #expect(a.notes.sortedNames(\.slug) == ["n1", "n2"])
        let child = parent.newChildContext()
        child.delete(try note("n2", child))
        try child.save()
        try parent.save()
        #expect(a.notes.map(\.slug) == ["n1"])
        #expect(try storedPairs(store) == ["n1-a"])
    }

    /// A new object linked and deleted in a child never reaches the parent, nor do its pairs.
    @Test func aChildThatLinksAndDeletesANewObjectPushesNeither() throws {
        let store = try TestStore(.memory, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let parent = try store.open().newContext()
        let child = parent.newChildContext()
        let fresh = child.insert(Note.self)
        fresh.slug = "fresh"
        try label("a", child).$notes.insert(fresh)
        child.delete(fresh)
        try child.save()
        #expect(try label("a", parent).notes.map(\.slug) == ["n1"])
        try parent.save()
        #expect(try storedPairs(store) == ["n1-a"])
        #expect(try store.reader().all(Note.self).count == 3)
    }

    /// A dry run reports the pairs' objects as a save would, and writes nothing.
    @Test(arguments: Location.allCases)
    func previewSaveReportsPairChangesAndWritesNothing(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let context = try store.open().newContext()
        let (n1, n2, a) = (try note("n1", context), try note("n2", context), try label("a", context))
        n1.$labels.remove(a)
        n2.$labels.insert(a)
        let preview = try context.previewSave()
        #expect(try storedPairs(store) == ["n1-a"])
        var saved = ChangeSet()
        context.onDidSave { saved = $0 }
        try context.save()
        #expect(preview == saved)
        #expect(saved.updated(Note.self) == [n1.objectID, n2.objectID] && saved.updated(Label.self) == [a.objectID])
        #expect(try storedPairs(store) == ["n2-a"])
    }

    @Test func linkingAnObjectOfAnotherContextFailsTheSaveAndTouchesNeither() throws {
        let store = try TestStore(.memory, entities: manyToManyEntities)
        try seed(store)
        let (mine, theirs) = (try store.open().newContext(), try store.open().newContext())
        let b = try label("b", theirs)
        try note("n1", mine).$labels.insert(b)
        #expect(throws: GraphStoreError.foreignObject(b.objectID)) { try mine.save() }
        #expect(!theirs.hasChanges)
        #expect(b.notes.isEmpty)
        #expect(try storedPairs(store) == [])
    }

    /// A new duplicate folded into a stored row by the merge policy brings its links along (union).
    @Test(arguments: Location.allCases)
    func aDuplicateFoldedIntoAStoredRowKeepsTheUnionOfLinks(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let context = try store.open().newContext()
        context.mergePolicy = .objectTrump
        let duplicate = context.insert(Label.self)
        duplicate.name = "a"
        duplicate.$notes.insert(try note("n2", context))
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(try storedPairs(store) == ["n1-a", "n2-a"])
        #expect(changes.inserted.isEmpty)
        #expect(changes.updated(Note.self).count == 1)
        let reader = try store.reader()
        #expect(try reader.all(Label.self).count == 3)
        #expect(try label("a", reader).notes.sortedNames(\.slug) == ["n1", "n2"])
    }

    @Test(arguments: Location.allCases)
    func aPairWithinOneEntityKeepsItsTwoDirectionsApart(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        let context = try store.open().newContext()
        let (ana, bo, cy) = (context.insert(Person.self), context.insert(Person.self), context.insert(Person.self))
        (ana.name, bo.name, cy.name) = ("ana", "bo", "cy")
        ana.follows = [bo, cy]
        cy.$follows.insert(ana)
        #expect(bo.followers.map(\.name) == ["ana"])
        try context.save()
        let reader = try store.reader()
        let people = Dictionary(uniqueKeysWithValues: try reader.all(Person.self).map { ($0.name, $0) })
        #expect(people["ana"]!.follows.sortedNames(\.name) == ["bo", "cy"])
        #expect(people["ana"]!.followers.map(\.name) == ["cy"])
        #expect(people["bo"]!.follows.isEmpty)
        #expect(people["bo"]!.followers.map(\.name) == ["ana"])
        #expect(people["cy"]!.follows.map(\.name) == ["ana"])
        #expect(try reader.all(Person.self, where: .any(\.$follows, \.$name == "bo")).map(\.name) == ["ana"])
        #expect(try reader.all(Person.self, where: .any(\.$followers, \.$name == "ana")).map(\.name).sorted() == ["bo", "cy"])
        #expect(try reader.memberCounts(\Person.$followers) == [people["ana"]!.objectID: 1, people["bo"]!.objectID: 1, people["cy"]!.objectID: 1])
    }

    /// `.noAction` cannot leave a join row pointing at nothing: it acts as `.nullify`.
    @Test(arguments: Location.allCases)
    func noActionOnAPairActsAsNullify(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        let context = try store.open().newContext()
        let (ana, bo) = (context.insert(Person.self), context.insert(Person.self))
        (ana.name, bo.name) = ("ana", "bo")
        ana.follows = [bo]
        try context.save()
        context.delete(bo)
        try context.save()
        #expect(ana.follows.isEmpty)
        let reader = try store.reader()
        #expect(try reader.all(Person.self).map { "\($0.name) \($0.follows.count) \($0.followers.count)" } == ["ana 0 0"])
        #expect(try reader.memberCounts(\Person.$follows).isEmpty)
    }

    /// New duplicates of one save fold into one survivor, which takes every duplicate's pairs.
    @Test(arguments: Location.allCases)
    func newDuplicatesFoldIntoOneSurvivorWithEveryPair(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store)
        let context = try store.open().newContext()
        context.mergePolicy = .objectTrump
        let (first, second) = (context.insert(Label.self), context.insert(Label.self))
        (first.name, second.name) = ("x", "x")
        let (n1, n2) = (try note("n1", context), try note("n2", context))
        first.$notes.insert(n1)
        n2.$labels.insert(second)
        try context.save()
        #expect(try storedPairs(store) == ["n1-x", "n2-x"])
        let survivor = try label("x", context)
        #expect(survivor === second)
        #expect(survivor.notes.sortedNames(\.slug) == ["n1", "n2"])
        #expect(n1.labels.map { $0 === survivor } == [true])
    }

    /// Optimistic locking does not compare pairs (nor does Core Data's): two contexts linking and
    /// unlinking one note both save, each pair ending as its last save left it. The objects
    /// themselves are updated objects, so a note whose row changed meanwhile is still a conflict.
    @Test(arguments: Location.allCases)
    func pairsAreNotLockedButTheirObjectsRowsAre(_ location: Location) throws {
        let store = try TestStore(location, entities: manyToManyEntities)
        try seed(store, links: [("n1", "a")])
        let (first, second) = (try store.open().newContext(), try store.open().newContext())
        try note("n1", first).$labels.remove(try label("a", first))
        try note("n1", second).$labels.insert(try label("b", second))
        try first.save()
        try second.save()
        #expect(try storedPairs(store) == ["n1-b"])

        let stale = try store.open().newContext()
        let n1 = try note("n1", stale)
        let editor = try store.open().newContext()
        try note("n1", editor).title = "edited"
        try editor.save()
        n1.$labels.insert(try label("c", stale))
        #expect {
            try stale.save()
        } throws: { error in
            guard case GraphStoreError.mergeConflicts(let conflicts) = error else { return false }
            return conflicts.map(\.object) == [n1.objectID]
        }
        stale.mergePolicy = .storeTrump
        try stale.save()
        #expect(try storedPairs(store) == ["n1-b", "n1-c"])
        #expect(try note("n1", store.reader()).title == "edited")
    }

    @Test func aRolledBackNewObjectKeepsNoPairs() throws {
        let store = try TestStore(.memory, entities: manyToManyEntities)
        try seed(store)
        let context = try store.open().newContext()
        let n1 = try note("n1", context)
        let fresh = context.insert(Label.self)
        fresh.name = "fresh"
        fresh.$notes.insert(n1)
        context.rollback()
        #expect(n1.labels.isEmpty && fresh.notes.isEmpty)
        context.insert(fresh)
        try context.save()
        #expect(try storedPairs(store) == [])
        #expect(try store.reader().all(Label.self).count == 4)
    }

    @Test func theModelRefusesAHalfDeclaredPair() throws {
        #expect(problems([Orphan.self, Note.self, Label.self]).contains { problem in
            problem.hasPrefix("Orphan.notes: no to-many on Note names it as its inverse; declare @ToMany(inverse: \\Orphan.$notes) on Note")
                && problem.hasSuffix("or name its to-one inverse here for a one-to-many")
        })
    }

    @Test func theModelRefusesJoinTablesNamedLikeAnEntityOrLikeEachOther() throws {
        #expect(problems([Note.self, Label.self, NoteLabels.self]).contains("Note.labels: its join table Note_labels has the name of an entity"))
        #expect(problems([Rack.self, RackBay.self, Slot.self]).contains(
            "Rack.bay_slot and Rack_bay.slot would share the join table Rack_bay_slot; rename one of them"))
    }

    private func problems(_ entities: [ManagedObject.Type]) -> [String] {
        do {
            _ = try ManagedObjectModel(version: 1, entities: entities)
            return []
        } catch GraphStoreError.invalidModel(let problems) {
            return problems
        } catch {
            return ["unexpected \(error)"]
        }
    }
}

/// The unnamed side of a pair that no to-many names.
final class Orphan: ManagedObject {
    @ToMany var notes: [Note]
}

/// An entity named like `Note.labels`'s join table.
final class NoteLabels: ManagedObject {
    override class var entityName: String { "Note_labels" }
    @Attribute var count = 0
}

/// Two pairs whose join tables would both be `Rack_bay_slot`.
final class Rack: ManagedObject {
    @ToMany(inverse: \Slot.$racks) var bay_slot: [Slot]
}

final class RackBay: ManagedObject {
    override class var entityName: String { "Rack_bay" }
    @ToMany(inverse: \Slot.$bays) var slot: [Slot]
}

final class Slot: ManagedObject {
    @ToMany var racks: [Rack]
    @ToMany var bays: [RackBay]
}
