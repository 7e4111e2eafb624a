import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `update(_:_:)`: attribute values for a stored row the context does not hold, written at save.
@Suite(.onTestThreads) struct RowUpdateTests {
    /// Ana (BR), Bo (no country), saved; returns the store and their IDs by name.
    private static func seeded(_ location: Location) throws -> (TestStore, [String: ObjectID]) {
        let store = try TestStore(location)
        let context = try store.open().newContext()
        for (name, country) in [("Ana", "BR"), ("Bo", nil)] {
            let author = context.insert(Author.self)
            author.name = name
            author.country = country
        }
        try context.save()
        let authors = try store.reader().fetchColumns(FetchRequest<Author>(), [\.$name])
        return (store, Dictionary(uniqueKeysWithValues: zip(try authors.values(\.$name), authors.ids)))
    }

    private static func countries(_ store: TestStore) throws -> [String: String?] {
        let authors = try store.reader().fetch(FetchRequest<Author>())
        return Dictionary(uniqueKeysWithValues: authors.map { ($0.name, $0.country) })
    }

    @Test(arguments: [Location.file, .postgres])
    func writesTheRowAtSaveAndReportsIt(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        context.update(ids["Bo"]!, .set(\Author.$country, to: "NZ"))
        #expect(context.hasChanges)
        #expect(try Self.countries(store)["Bo"] == .some(nil), "nothing before the save")
        var changes = ChangeSet()
        context.onDidSave { changes = $0 }
        try context.save()
        #expect(!context.hasChanges)
        #expect(try Self.countries(store) == ["Ana": "BR", "Bo": "NZ"])
        #expect(changes.updated(Author.self) == [ids["Bo"]!])
    }

    /// A held object takes the value at once, as if assigned (its change is saved the usual way).
    @Test(arguments: [Location.file, .postgres])
    func aHeldObjectTakesTheValue(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        let ana = try context.existingObject(with: ids["Ana"]!, as: Author.self)
        context.update(ids["Ana"]!, .set(\Author.$country, to: "CL"))
        #expect(ana.country == "CL")
        try context.save()
        #expect(try Self.countries(store)["Ana"] == "CL")
    }

    /// A row that no longer exists fails the save, which then writes nothing.
    @Test(arguments: [Location.file, .postgres])
    func aMissingRowFailsTheSave(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        let other = try store.open().newContext()
        other.delete(try other.existingObject(with: ids["Bo"]!, as: Author.self))
        try other.save()
        context.insert(Author.self).name = "Cy"
        context.update(ids["Bo"]!, .set(\Author.$country, to: "NZ"))
        #expect(throws: GraphStoreError.objectNotFound(ids["Bo"]!)) { try context.save() }
        #expect(try Self.countries(store) == ["Ana": "BR"])
    }

    /// Rollback discards it; a dry run reports it and writes nothing; a child hands it to its parent.
    @Test(arguments: [Location.file, .postgres])
    func rollbackPreviewAndChildContexts(_ location: Location) throws {
        let (store, ids) = try Self.seeded(location)
        let context = try store.open().newContext()
        context.update(ids["Ana"]!, .set(\Author.$country, to: "UY"))
        #expect(try context.previewSave().updated(Author.self) == [ids["Ana"]!])
        #expect(try Self.countries(store)["Ana"] == "BR")
        context.rollback()
        #expect(!context.hasChanges)

        let child = context.newChildContext()
        child.update(ids["Ana"]!, .set(\Author.$country, to: "PY"))
        try child.save()
        #expect(context.hasChanges && !child.hasChanges)
        #expect(try Self.countries(store)["Ana"] == "BR")
        try context.save()
        #expect(try Self.countries(store)["Ana"] == "PY")
    }
}
