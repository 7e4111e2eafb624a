import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// The seed app's pair with a unique key on both sides; a studio lives only while it has films.
final class Studio: ManagedObject {
    @Attribute(.unique) var name = ""
    @Attribute var city = ""
    @ToMany(inverse: \Film.$studio, deleteRule: .cascade, deletesOwnerWhenEmpty: true) var films: [Film]
}

final class Film: ManagedObject {
    @Attribute(.unique) var code = ""
    @Attribute var title = ""
    @Attribute var year = 0
    @ToOne(deleteRule: .nullify) var studio: Studio?
}

/// One feed item: a film and its studio.
struct Item {
    var code: String
    var title: String
    var studio: String
    var city = "Lisbon"
}

/// A batch of items as import records, the way an app maps its feed.
struct Batch {
    var studios = ImportRecords(Studio.self, key: \.$name)
    var films = ImportRecords(Film.self, key: \.$code)

    init(_ items: [Item]) {
        let city = studios.field(\.$city)
        let (title, studio) = (films.field(\.$title), films.link(\.$studio))
        for item in items {
            let owner = studios.append(item.studio) { $0[city] = item.city }
            films.append(item.code) { film in
                film[title] = item.title
                film[studio] = owner
            }
        }
    }
}

@Suite("Import sessions", .onTestThreads)
struct ImportSessionTests {
    static let entities: [ManagedObject.Type] = [Studio.self, Film.self, Author.self, Book.self]

    /// What the store holds: film code → (title, studio name), and studio name → city.
    struct Snapshot: Equatable {
        var films: [String: [String]] = [:]
        var studios: [String: String] = [:]
    }

    static func snapshot(_ store: TestStore) throws -> Snapshot {
        let context = try store.reader()
        var snapshot = Snapshot()
        for film in try context.all(Film.self) { snapshot.films[film.code] = [film.title, film.studio?.name ?? "-"] }
        for studio in try context.all(Studio.self) { snapshot.studios[studio.name] = studio.city }
        return snapshot
    }

    static func seeded(_ location: Location, _ items: [Item]) throws -> TestStore {
        let store = try TestStore(location, entities: entities)
        let batch = Batch(items)
        try store.open().importing(mergePolicy: .objectTrump) { try $0.save(batch.studios, batch.films) }
        return store
    }

    @Test(arguments: Location.allCases)
    func aFirstImportInsertsEveryRecordOnceLinkedToItsOwner(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let batch = Batch([Item(code: "1", title: "A", studio: "S"), Item(code: "2", title: "B", studio: "T"),
                           Item(code: "3", title: "C", studio: "S")])
        let result = try store.open().importing(mergePolicy: .objectTrump) { try $0.save(batch.studios, batch.films) }
        #expect(result.counts(Film.self).inserted == 3)
        #expect(result.counts(Studio.self).inserted == 2)
        #expect(result.counts(Studio.self).repeated == 1)
        #expect(result.changes.inserted(Film.self).count == 3)
        #expect(try Self.snapshot(store) == Snapshot(films: ["1": ["A", "S"], "2": ["B", "T"], "3": ["C", "S"]],
                                                     studios: ["S": "Lisbon", "T": "Lisbon"]))
    }

    @Test(arguments: Location.allCases)
    func objectTrumpWritesWhatChangedAndCountsTheRestUnchanged(_ location: Location) throws {
        let store = try Self.seeded(location, [Item(code: "1", title: "A", studio: "S"), Item(code: "2", title: "B", studio: "S")])
        let batch = Batch([Item(code: "1", title: "A", studio: "S"), Item(code: "2", title: "B2", studio: "S", city: "Porto")])
        let (films, studios) = try store.open().importing(mergePolicy: .objectTrump) { session in
            try session.save(batch.studios, batch.films)
            return (session.counts(Film.self), session.counts(Studio.self))
        }
        #expect((films.inserted, films.updated, films.unchanged) == (0, 1, 1))
        #expect((studios.updated, studios.repeated) == (1, 1), "the last copy's city wins")
        #expect(try Self.snapshot(store) == Snapshot(films: ["1": ["A", "S"], "2": ["B2", "S"]], studios: ["S": "Porto"]))
    }

    /// Issue 11, point 1: the stored photo keeps its photographer, and the new one is never inserted.
    @Test(arguments: Location.allCases)
    func storeTrumpInsertsNoOwnerThatNothingLinksTo(_ location: Location) throws {
        let store = try Self.seeded(location, [Item(code: "1", title: "A", studio: "Old")])
        let batch = Batch([Item(code: "1", title: "changed", studio: "New")])
        let result = try store.open().importing(mergePolicy: .storeTrump) { try $0.save(batch.studios, batch.films) }
        #expect(result.counts(Studio.self).inserted == 0)
        #expect(result.counts(Film.self).unchanged == 1)
        #expect(result.changes.isEmpty)
        #expect(try Self.snapshot(store) == Snapshot(films: ["1": ["A", "Old"]], studios: ["Old": "Lisbon"]))
    }

    /// Issue 11, point 2: an owner and a record met on two saves of one session into an empty store.
    @Test(arguments: Location.allCases)
    func underErrorWhatTheSessionStoredIsNeverAConflict(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let pages = [Batch([Item(code: "1", title: "A", studio: "Anna")]),
                     Batch([Item(code: "2", title: "B", studio: "Anna"), Item(code: "1", title: "A moved", studio: "Anna")])]
        let films = try store.open().importing(mergePolicy: .error) { session in
            for page in pages { try session.save(page.studios, page.films) }
            return session.counts(Film.self)
        }
        #expect((films.inserted, films.repeated, films.updated) == (2, 1, 0))
        #expect(try Self.snapshot(store).films == ["1": ["A moved", "Anna"], "2": ["B", "Anna"]], "the last copy wins")
    }

    @Test(arguments: Location.allCases)
    func underErrorARowStoredBeforeTheSessionIsAConflictAndTheSaveWritesNothing(_ location: Location) throws {
        let store = try Self.seeded(location, [Item(code: "1", title: "A", studio: "S")])
        let before = try Self.snapshot(store)
        let batch = Batch([Item(code: "9", title: "new", studio: "T"), Item(code: "1", title: "A2", studio: "T")])
        #expect {
            try store.open().importing(mergePolicy: .error) { try $0.save(batch.studios, batch.films) }
        } throws: { error in
            guard case GraphStoreError.constraintConflicts(let conflicts) = error else { return false }
            return conflicts.map(\.entity) == ["Film"] && conflicts.map(\.values) == [["1"]] && conflicts[0].storedObject != nil
        }
        #expect(try Self.snapshot(store) == before)
    }

    /// Repeats within one save and across saves: stored once, counted once; the policy picks the copy.
    @Test(arguments: [(MergePolicy.objectTrump, "third"), (.storeTrump, "first"), (.error, "third")], [Location.file, .postgres])
    func aRepeatedKeyIsStoredOnceAndTheCopyIsThePolicys(_ expected: (policy: MergePolicy, winner: String), _ location: Location) throws {
        let (policy, winner) = expected
        let store = try TestStore(location, entities: Self.entities)
        let pages = [Batch([Item(code: "1", title: "first", studio: "S"), Item(code: "1", title: "second", studio: "S")]),
                     Batch([Item(code: "1", title: "third", studio: "S")])]
        let films = try store.open().importing(mergePolicy: policy) { session in
            for page in pages { try session.save(page.studios, page.films) }
            return session.counts(Film.self)
        }
        #expect((films.inserted, films.repeated, films.updated, films.unchanged) == (1, 2, 0, 0))
        #expect(try Self.snapshot(store).films == ["1": [winner, "S"]])
    }

    /// A record first counted unchanged that a later copy changes is counted updated instead.
    @Test(arguments: [Location.file, .postgres])
    func aRepeatThatChangesAnUnchangedRowMovesItToUpdated(_ location: Location) throws {
        let store = try Self.seeded(location, [Item(code: "1", title: "A", studio: "S")])
        let pages = [Batch([Item(code: "1", title: "A", studio: "S")]), Batch([Item(code: "1", title: "A2", studio: "S")])]
        let films = try store.open().importing(mergePolicy: .objectTrump) { session in
            for page in pages { try session.save(page.studios, page.films) }
            return session.counts(Film.self)
        }
        #expect((films.updated, films.unchanged, films.repeated) == (1, 0, 1))
    }

    @Test(arguments: Location.allCases)
    func anOwnerLeftWithoutMembersIsDeletedInTheSameSave(_ location: Location) throws {
        let store = try Self.seeded(location, [Item(code: "1", title: "A", studio: "Old"), Item(code: "2", title: "B", studio: "Keep")])
        let batch = Batch([Item(code: "1", title: "A", studio: "New")])
        let result = try store.open().importing(mergePolicy: .objectTrump) { try $0.save(batch.studios, batch.films) }
        #expect(result.counts(Studio.self).deleted == 1)
        #expect(result.changes.deleted(Studio.self).count == 1)
        #expect(try Self.snapshot(store).studios.keys.sorted() == ["Keep", "New"])
    }

    /// A dry run is the real run rolled back: same counts over several saves, nothing written.
    @Test(arguments: [MergePolicy.objectTrump, .storeTrump, .error], [Location.file, .postgres])
    func aDryRunCountsExactlyWhatTheRealRunDoes(_ policy: MergePolicy, _ location: Location) throws {
        func run(_ dryRun: Bool, _ store: TestStore) throws -> [ImportCounts] {
            let pages = [Batch([Item(code: "1", title: "A", studio: "Anna"), Item(code: "2", title: "B", studio: "Bo")]),
                         Batch([Item(code: "1", title: "A2", studio: "Anna"), Item(code: "3", title: "C", studio: "Anna")])]
            return try store.open().importing(mergePolicy: policy, dryRun: dryRun) { session in
                for page in pages { try session.save(page.studios, page.films) }
                return [session.counts(Film.self), session.counts(Studio.self)]
            }
        }
        let store = try TestStore(location, entities: Self.entities)
        let preview = try run(true, store)
        #expect(try Self.snapshot(store) == Snapshot())
        #expect(try run(false, store) == preview)
        #expect(preview[0].inserted == 3 && preview[0].repeated == 1)
    }

    /// A session that expects new keys inserts without looking up; meeting a stored key, the save
    /// runs again looking up, and the policy decides as it would have.
    @Test(arguments: [Location.file, .postgres])
    func aKeyStoredMeanwhileIsMergedNotDuplicated(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let container = try store.open()
        try container.importing(mergePolicy: .objectTrump) { session in
            let first = Batch([Item(code: "1", title: "A", studio: "S")])
            try session.save(first.studios, first.films)  // all new: the next save assumes new keys
            let other = try store.open().newContext()
            let film = other.insert(Film.self)
            (film.code, film.title) = ("2", "stored meanwhile")
            film.studio = other.insert(Studio.self)
            film.studio?.name = "Other"
            try other.save()
            let second = Batch([Item(code: "2", title: "mine", studio: "S"), Item(code: "3", title: "C", studio: "S")])
            let result = try session.save(second.studios, second.films)
            #expect((result.counts(Film.self).inserted, result.counts(Film.self).updated) == (1, 1))
        }
        #expect(try Self.snapshot(store).films == ["1": ["A", "S"], "2": ["mine", "S"], "3": ["C", "S"]])
        #expect(try Self.snapshot(store).studios.keys.sorted() == ["S"], "Other lost its only film")
    }

    /// Owners the session remembers are not read again; if another connection deleted one, the save
    /// runs again reading every key, and the owner is inserted anew.
    @Test(arguments: [Location.file, .postgres])
    func aRememberedOwnerDeletedMeanwhileIsInsertedAgain(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        try store.open().importing(mergePolicy: .objectTrump) { session in
            let first = Batch([Item(code: "1", title: "A", studio: "S")])
            try session.save(first.studios, first.films)
            let other = try store.open().newContext()
            for film in try other.all(Film.self) { other.delete(film) }
            for studio in try other.all(Studio.self) { other.delete(studio) }
            try other.save()
            let second = Batch([Item(code: "2", title: "B", studio: "S")])
            let result = try session.save(second.studios, second.films)
            #expect(result.counts(Studio.self).inserted == 1)
        }
        #expect(try Self.snapshot(store) == Snapshot(films: ["2": ["B", "S"]], studios: ["S": "Lisbon"]))
    }

    /// Records without links, of an entity that is not deleted when empty, are plain upserts;
    /// unset attributes keep their stored value or take the declared default.
    @Test(arguments: Location.allCases)
    func unsetAttributesKeepTheirValue(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        var books = ImportRecords(Book.self, key: \.$isbn)
        let (title, pages) = (books.field(\.$title), books.field(\.$pages))
        books.append("1") { $0[title] = "One"; $0[pages] = 10 }
        try store.open().importing(mergePolicy: .objectTrump) { try $0.save(books) }
        var again = ImportRecords(Book.self, key: \.$isbn)
        again.append("1") { $0[title] = "One, revised" }
        again.append("2")
        try store.open().importing(mergePolicy: .objectTrump) { try $0.save(again) }
        let stored = try store.reader().all(Book.self, sortBy: [.ascending(\.$isbn)])
        #expect(stored.map(\.title) == ["One, revised", ""])
        #expect(stored.map(\.pages) == [10, 0])
    }

    /// A failed save leaves the earlier saves of the session in the store.
    @Test(arguments: [Location.file, .postgres])
    func aFailedSaveKeepsEarlierSaves(_ location: Location) throws {
        let store = try Self.seeded(location, [Item(code: "9", title: "Z", studio: "Z")])
        #expect(throws: GraphStoreError.self) {
            try store.open().importing(mergePolicy: .error) { session in
                let first = Batch([Item(code: "1", title: "A", studio: "S")])
                try session.save(first.studios, first.films)
                let second = Batch([Item(code: "9", title: "Z2", studio: "S")])
                try session.save(second.studios, second.films)
            }
        }
        #expect(try Self.snapshot(store).films == ["1": ["A", "S"], "9": ["Z", "Z"]])
    }

    @Test(arguments: Location.allCases)
    func aFieldSetOnInsertIsKeptAndNeverAnUpdate(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        func importFilm(title: String, year: Int) throws -> ImportCounts {
            var films = ImportRecords(Film.self, key: \.$code)
            let (titleField, yearField) = (films.field(\.$title), films.fieldSetOnInsert(\.$year))
            films.append("1") { film in
                film[titleField] = title
                film[yearField] = year
            }
            return try store.open().importing(mergePolicy: .objectTrump) { try $0.save(films) }.counts(Film.self)
        }
        #expect(try importFilm(title: "Tabu", year: 2001).inserted == 1)
        #expect(try importFilm(title: "Tabu", year: 2002).unchanged == 1, "a difference only there is no update")
        #expect(try importFilm(title: "Tabu (restored)", year: 2003).updated == 1)
        let film = try #require(try store.reader().all(Film.self).first)
        #expect(film.title == "Tabu (restored)" && film.year == 2001)
    }
}
