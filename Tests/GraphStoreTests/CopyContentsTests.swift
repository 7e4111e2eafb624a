import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `copyContents(into:)`: a whole store into an empty one of the same model, between engines.
@Suite(.onTestThreads) struct CopyContentsTests {
    static let entities: [ManagedObject.Type] = [Author.self, Book.self] + manyToManyEntities

    static func seed(_ context: ObjectContext) throws {
        let ana = context.insert(Author.self)
        ana.name = "Ana"
        for title in ["Dunes", "Cliffs"] {
            let book = context.insert(Book.self)
            (book.title, book.isbn) = (title, "isbn-" + title)
            book.author = ana
        }
        let (red, blue) = (context.insert(Label.self), context.insert(Label.self))
        (red.name, blue.name) = ("red", "blue")
        for slug in ["a", "b", "c"] {
            let note = context.insert(Note.self)
            note.slug = slug
            note.labels = slug == "a" ? [red, blue] : [red]
        }
        try context.save()
    }

    /// Everything readable through objects, as plain values.
    static func snapshot(_ context: ObjectContext) throws -> [String] {
        let books = try context.all(Book.self).map { "book \($0.title) by \($0.author?.name ?? "-")" }
        let notes = try context.all(Note.self).map { "note \($0.slug): \($0.labels.map(\.name).sorted())" }
        let labels = try context.all(Label.self).map { "label \($0.name): \($0.notes.map(\.slug).sorted())" }
        return (books + notes + labels).sorted()
    }

    @Test(arguments: [(Location.file, Location.postgres), (.postgres, .file), (.memory, .file)])
    func everyRowAndRelationshipIsCopied(from source: Location, to destination: Location) throws {
        let from = try TestStore(source, entities: Self.entities), to = try TestStore(destination, entities: Self.entities)
        try Self.seed(from.open().newContext())
        let counts = try from.open().copyContents(into: to.open())
        #expect(counts["Book"] == 2 && counts["Author"] == 1 && counts["Note"] == 3 && counts["Label"] == 2 && counts["Note_labels"] == 4)
        #expect(try Self.snapshot(to.reader()) == Self.snapshot(from.reader()))
        #expect(try Self.snapshot(to.reader()).count == 7)
    }

    @Test(arguments: [Location.file, .postgres])
    func aDestinationHoldingRowsIsRefusedAndLeftAsItWas(_ location: Location) throws {
        let from = try TestStore(.memory, entities: Self.entities), to = try TestStore(location, entities: Self.entities)
        try Self.seed(from.open().newContext())
        let context = try to.open().newContext()
        context.insert(Author.self).name = "Already here"
        try context.save()
        #expect(throws: GraphStoreError.incompatibleStore("the destination is not empty (Author holds rows)")) {
            try from.open().copyContents(into: to.open())
        }
        #expect(try to.reader().all(Author.self).map(\.name) == ["Already here"])
        #expect(try to.reader().count(FetchRequest<Book>()) == 0)
    }
}
