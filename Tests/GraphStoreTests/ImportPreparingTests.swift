import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// `ImportSession.save(preparing:)`: records made inside the save's transaction, from what it reads.
@Suite("Import sessions preparing records in the save", .onTestThreads)
struct ImportPreparingTests {
    static let entities: [ManagedObject.Type] = [Studio.self, Film.self, Author.self, Book.self]

    /// Films of `items` except those whose code an `Author` row names (the tombstones here).
    static func films(_ items: [Item], leavingOutCodesIn context: ObjectContext) throws -> [AnyImportRecords] {
        let banned = Set(try context.all(Author.self).map(\.name))
        let batch = Batch(items.filter { !banned.contains($0.code) })
        return [AnyImportRecords(batch.studios), AnyImportRecords(batch.films)]
    }

    /// A tombstone committed by another connection before the save is read inside it, and the
    /// film it names is left out.
    @Test(arguments: [Location.file, .postgres])
    func theRecordsFollowWhatTheSavesTransactionReads(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let container = try store.open()
        let items = [Item(code: "1", title: "A", studio: "S"), Item(code: "2", title: "B", studio: "S")]
        try container.importing(mergePolicy: .objectTrump) { session in
            let other = try store.open().newContext()
            other.insert(Author.self).name = "2"
            try other.save()
            let result = try session.save(preparing: { try Self.films(items, leavingOutCodesIn: $0) })
            #expect(result.counts(Film.self).inserted == 1)
        }
        #expect(try store.reader().all(Film.self).map(\.code) == ["1"])
    }

    /// A save that runs again (here: a key it assumed new was stored meanwhile by another
    /// connection) prepares its records again, reading what is stored now.
    @Test(arguments: [Location.file, .postgres])
    func aSaveThatRunsAgainPreparesAgain(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let container = try store.open()
        var reads: [[String]] = []
        try container.importing(mergePolicy: .objectTrump) { session in
            try session.save(Batch([Item(code: "1", title: "A", studio: "S")]).films, Batch([Item(code: "1", title: "A", studio: "S")]).studios)
            // The last save found nothing stored: the next one assumes its keys are new. Another
            // connection stores film 3 and a tombstone for film 4 before it runs.
            let other = try store.open().newContext()
            let studio = other.insert(Studio.self)
            studio.name = "T"
            let film = other.insert(Film.self)
            (film.code, film.title, film.studio) = ("3", "stored elsewhere", studio)
            other.insert(Author.self).name = "4"
            try other.save()
            let items = [Item(code: "3", title: "C", studio: "T"), Item(code: "4", title: "D", studio: "T")]
            let result = try session.save(preparing: { context in
                reads.append(try context.all(Author.self).map(\.name))
                return try Self.films(items, leavingOutCodesIn: context)
            })
            #expect(result.counts(Film.self).updated == 1 && result.counts(Film.self).inserted == 0)
        }
        #expect(reads.count >= 1 && reads.allSatisfy { $0 == ["4"] }, "\(reads)")
        let films = try store.reader().all(Film.self, sortBy: [.ascending(\.$code)])
        #expect(films.map(\.code) == ["1", "3"] && films.last?.title == "C")
    }
}
