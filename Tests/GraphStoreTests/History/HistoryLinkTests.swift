import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// Many-to-many links in persistent history: a join row is no change of its own; a link or an
/// unlink is an update of each object it links, naming that side's to-many (Core Data's
/// `updatedProperties`). Objects inserted or deleted in the transaction show only that.
@Suite("Persistent history: many-to-many links", .onTestThreads)
struct HistoryLinkTests {
    static func open(_ store: TemporaryStore) throws -> PersistentContainer {
        try PersistentContainer(model: ManagedObjectModel(version: 1, entities: manyToManyEntities), location: store.location, tracksHistory: true)
    }

    static func lastChanges(_ container: PersistentContainer) throws -> [String] {
        try #require(try container.allHistory().last).changes.map { "\($0.entity) \($0.textKey) \($0.kind) \($0.changedAttributes)" }.sorted()
    }

    @Test(arguments: historyLocations) func linksAndUnlinksAreUpdatesOfBothEnds(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try Self.open(store)
        let context = container.newContext()
        let (a, b, c) = (context.insert(Label.self), context.insert(Label.self), context.insert(Label.self))
        (a.name, b.name, c.name) = ("a", "b", "c")
        let note = context.insert(Note.self)
        (note.slug, note.labels) = ("n1", [a, b])
        try context.save()
        #expect(try Self.lastChanges(container) == ["Label a inserted []", "Label b inserted []", "Label c inserted []", "Note n1 inserted []"])

        note.labels = [a, c]
        try context.save()
        #expect(try Self.lastChanges(container) == [#"Label b updated ["notes"]"#, #"Label c updated ["notes"]"#, #"Note n1 updated ["labels"]"#])

        note.title = "Renamed"
        note.labels = [a]
        try context.save()
        #expect(try Self.lastChanges(container) == [#"Label c updated ["notes"]"#, #"Note n1 updated ["title", "labels"]"#], "one change per object")

        context.delete(a)
        try context.save()
        #expect(try Self.lastChanges(container) == ["Label a deleted []", #"Note n1 updated ["labels"]"#])
    }

    /// A pair within one entity: each column is its own side (`follows` and `followers`).
    @Test(arguments: historyLocations) func aPairWithinOneEntityNamesEachSide(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try Self.open(store)
        let context = container.newContext()
        let (ana, bo) = (context.insert(Person.self), context.insert(Person.self))
        (ana.name, bo.name) = ("Ana", "Bo")
        try context.save()
        let (anaID, boID) = (try #require(ana.objectID.rowID), try #require(bo.objectID.rowID))
        ana.follows = [bo]
        try context.save()
        #expect(try Self.lastChanges(container) == [#"Person \#(anaID) updated ["follows"]"#, #"Person \#(boID) updated ["followers"]"#])
    }

    /// Many objects deleted at once (more than one read of 500): each keeps its tombstone, and the
    /// labels they leave are updated once each.
    @Test(arguments: historyLocations) func manyDeletesKeepTheirTombstonesAndUnlinkTheirLabels(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let container = try Self.open(store)
        let context = container.newContext()
        let labels = (0..<3).map { _ in context.insert(Label.self) }
        for (index, label) in labels.enumerated() { label.name = "l\(index)" }
        let notes = (0..<1_200).map { _ in context.insert(Note.self) }
        for (index, note) in notes.enumerated() { (note.slug, note.title, note.labels) = ("n\(index)", "t\(index)", [labels[index % 3]]) }
        try context.save()
        notes.dropLast(100).forEach(context.delete)
        try context.save()
        let changes = try #require(try container.allHistory().last).changes
        #expect(Set(changes.filter { $0.kind == .deleted }.map(\.textKey)) == Set((0..<1_100).map { "n\($0)" }))
        #expect(changes.filter { $0.entity == "Label" }.map { "\($0.textKey) \($0.changedAttributes)" }.sorted() == (0..<3).map { #"l\#($0) ["notes"]"# })
    }
}
