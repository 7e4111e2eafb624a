import GraphStore
import PhotoSyncTestSupport
import Testing

/// A catalogue entry keyed by a number: an integer unique key.
final class Reel: ManagedObject {
    @Attribute(.unique) var number = 0
    @Attribute var label = ""
}

/// An import session finds stored rows by their keys in batches (on SQLite, keys bound as one JSON
/// array): every key must be found again exactly, whatever its text and however many there are.
@Suite("Import lookups", .onTestThreads)
struct ImportLookupTests {
    static let entities: [ManagedObject.Type] = ImportSessionTests.entities + [Reel.self]

    /// Keys JSON must escape, non-ASCII keys, and (SQLite only: PostgreSQL text refuses it) one
    /// with NUL, which cannot go through JSON and is looked up with `IN`.
    static func awkwardKeys(_ location: Location) -> [String] {
        ["plain", "quote \" inside", "back\\slash", "tab\there", "line\nbreak", "bell\u{07}", "\u{1F}unit", "José",
         "NFD Jose\u{301}", "日本語", "🙂", "", "[\"json\"]"] + (location == .postgres ? [] : ["nul\u{0}inside"])
    }

    static func items(_ codes: [String], title: String) -> [Item] {
        codes.enumerated().map { Item(code: $1, title: title, studio: "studio \($0 % 3) \($1)") }
    }

    @Test(arguments: Location.allCases)
    func awkwardKeysAreFoundAgainByALaterSession(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let keys = Self.awkwardKeys(location)
        let first = Batch(Self.items(keys, title: "old"))
        try store.open().importing(mergePolicy: .objectTrump) { try $0.save(first.studios, first.films) }
        for policy in [MergePolicy.storeTrump, .objectTrump] {
            let again = Batch(Self.items(keys, title: policy == .objectTrump ? "new" : "ignored"))
            let result = try store.open().importing(mergePolicy: policy) { try $0.save(again.studios, again.films) }
            #expect(result.counts(Film.self).inserted == 0)
            #expect(result.counts(Studio.self).inserted == 0)
            let expected = policy == .objectTrump ? keys.count : 0
            #expect(result.counts(Film.self).updated == expected, "\(policy)")
            #expect(result.counts(Film.self).unchanged == keys.count - expected, "\(policy)")
        }
        let stored = try ImportSessionTests.snapshot(store)
        #expect(stored.films.count == keys.count)
        #expect(Set(stored.films.keys) == Set(keys))
        #expect(stored.films.values.allSatisfy { $0[0] == "new" })
    }

    @Test(arguments: Location.allCases)
    func keysBeyondOneBatchFindTheirOwnRows(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let codes = (0..<1_234).map { "film-\($0)" }
        let first = Batch(Self.items(codes, title: "old"))
        try store.open().importing(mergePolicy: .objectTrump) { try $0.save(first.studios, first.films) }
        // Every third film changes title; the rest must be found unchanged, not confused with a neighbour.
        var items = Self.items(codes, title: "old")
        for index in stride(from: 0, to: items.count, by: 3) { items[index].title = "new \(items[index].code)" }
        let again = Batch(items.reversed())
        let result = try store.open().importing(mergePolicy: .objectTrump) { try $0.save(again.studios, again.films) }
        #expect(result.counts(Film.self).inserted == 0)
        #expect(result.counts(Film.self).updated == (codes.count + 2) / 3)
        #expect(result.counts(Film.self).unchanged == codes.count - (codes.count + 2) / 3)
        let stored = try ImportSessionTests.snapshot(store)
        for (index, code) in codes.enumerated() {
            #expect(stored.films[code]?[0] == (index % 3 == 0 ? "new \(code)" : "old"))
        }
    }

    @Test(arguments: Location.allCases)
    func integerKeysAreFoundAgain(_ location: Location) throws {
        let store = try TestStore(location, entities: Self.entities)
        let numbers = [0, 1, -1, 42, Int.max, Int.min, 1 << 53 + 1]
        func records(_ label: String) -> ImportRecords<Reel> {
            var reels = ImportRecords(Reel.self, key: \.$number)
            let field = reels.field(\.$label)
            for number in numbers { reels.append(number) { $0[field] = "\(label) \(number)" } }
            return reels
        }
        try store.open().importing(mergePolicy: .objectTrump) { try $0.save(records("old")) }
        let result = try store.open().importing(mergePolicy: .objectTrump) { try $0.save(records("new")) }
        #expect(result.counts(Reel.self).inserted == 0)
        #expect(result.counts(Reel.self).updated == numbers.count)
        let reels = try store.reader().all(Reel.self)
        #expect(Dictionary(uniqueKeysWithValues: reels.map { ($0.number, $0.label) })
            == Dictionary(uniqueKeysWithValues: numbers.map { ($0, "new \($0)") }))
    }
}
