import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `ImportSession.save(preparing:finishing:)`: changes made after the records, in the same transaction.
@Suite("Import sessions finishing a save in its transaction", .onTestThreads)
struct ImportFinishingTests {
    static let entities: [ManagedObject.Type] = [Studio.self, Film.self, Author.self, Book.self]

    /// What `finish` writes commits with the records, and the counts it is given are the
    /// session's once the save commits (a repeat and an update included).
    @Test(arguments: [Location.file, .postgres])
    func theFinishingChangesCommitWithTheRecords(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let container = try store.open()
        let pages = [
            [Item(code: "1", title: "A", studio: "S"), Item(code: "2", title: "B", studio: "S")],
            [Item(code: "2", title: "B2", studio: "S"), Item(code: "3", title: "C", studio: "T"), Item(code: "3", title: "C", studio: "T")],
        ]
        var seen: [String] = []
        try container.importing(mergePolicy: .objectTrump) { session in
            for page in pages {
                try session.save(preparing: { _ in
                    let batch = Batch(page)
                    return [AnyImportRecords(batch.studios), AnyImportRecords(batch.films)]
                }, finishing: { context, result in
                    let counts = session.counts(Film.self, adding: result)
                    let run = try context.fetch(FetchRequest<Author>(predicate: \.$name == "run")).first ?? context.insert(Author.self)
                    (run.name, run.country) = ("run", "\(counts.inserted) \(counts.updated) \(counts.repeated)")
                })
                let counts = session.counts(Film.self)
                seen.append("\(counts.inserted) \(counts.updated) \(counts.repeated)")
                #expect(try store.reader().all(Author.self).map(\.country) == [seen.last])
            }
        }
        #expect(seen == ["2 0 0", "3 0 2"])
        #expect(try store.reader().all(Film.self).count == 3)
    }

    /// A `finish` that throws undoes the save: neither the records nor its own changes are stored.
    @Test(arguments: [Location.file, .postgres])
    func aFinishThatThrowsWritesNothing(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let container = try store.open()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try container.importing(mergePolicy: .objectTrump) { session in
                let batch = Batch([Item(code: "1", title: "A", studio: "S")])
                try session.save(preparing: { _ in [AnyImportRecords(batch.studios), AnyImportRecords(batch.films)] }, finishing: { context, _ in
                    context.insert(Author.self).name = "run"
                    throw Refused()
                })
            }
        }
        let reader = try store.reader()
        #expect(try reader.all(Film.self).isEmpty && reader.all(Studio.self).isEmpty && reader.all(Author.self).isEmpty)
    }
}
