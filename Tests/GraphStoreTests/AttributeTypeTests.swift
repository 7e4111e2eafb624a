import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// One attribute of every supported type, optional and not, plus a transient one.
final class Sample: ManagedObject {
    @Attribute(.unique) var name = ""
    @Attribute var count = 7
    @Attribute var big: Int64 = 0
    @Attribute var ratio = 0.5
    @Attribute var flag = false
    @Attribute var when = Date(timeIntervalSince1970: 0)
    @Attribute var bytes = Data()
    @Attribute var link = URL(string: "https://example.com/")!
    @Attribute var note: String? = nil
    @Attribute(.indexed) var score: Double? = nil
    @Attribute(.transient) var scratch = "temporary"
}

@Suite(.onTestThreads) struct AttributeTypeTests {
    @Test(arguments: [Location.file, .postgres])
    func everyTypeRoundTripsThroughAReopenedStore(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let when = Date(timeIntervalSince1970: 1_700_000_000.25)
        do {
            let context = try store.open(entities: [Sample.self]).newContext()
            let sample = context.insert(Sample.self)
            sample.name = "a"
            sample.big = Int64.max
            sample.ratio = -1.25
            sample.flag = true
            sample.when = when
            sample.bytes = Data([0, 1, 254, 255])
            sample.link = URL(string: "https://example.com/photo?id=1&x=%20")!
            sample.note = "héllo"
            sample.score = 3.5
            sample.scratch = "changed"
            let defaults = context.insert(Sample.self)
            defaults.name = "b"
            try context.save()
        }
        let reader = try store.open(entities: [Sample.self]).newContext()
        let samples = try reader.fetch(FetchRequest<Sample>(sortBy: [.ascending(\.$name)]))
        #expect(samples.count == 2)
        let a = samples[0]
        #expect(a.count == 7)
        #expect(a.big == Int64.max)
        #expect(a.ratio == -1.25)
        #expect(a.flag)
        #expect(a.when == when)
        #expect(a.bytes == Data([0, 1, 254, 255]))
        #expect(a.link.absoluteString == "https://example.com/photo?id=1&x=%20")
        #expect(a.note == "héllo")
        #expect(a.score == 3.5)
        #expect(a.scratch == "temporary")  // transient: never stored
        let b = samples[1]
        #expect(b.note == nil)
        #expect(b.score == nil)
        #expect(b.flag == false)
        #expect(b.link.absoluteString == "https://example.com/")
    }

    @Test(arguments: [Location.file, .postgres])
    func schemaHasTheDeclaredIndexesAndNoTransientColumn(_ location: Location) throws {
        let store = try TemporaryStore(location)
        _ = try store.open(entities: [Author.self, Book.self])
        let indexes = try store.indexDefinitions("Book")
        // PostgreSQL's keys are NULLS FIRST, so that both of GraphStore's sort directions read them.
        let nulls = location == .postgres ? " NULLS FIRST" : ""
        #expect(indexes.contains { $0.contains("UNIQUE INDEX Book_isbn_unique") && $0.hasSuffix("(isbn\(nulls))") }, "\(indexes)")
        #expect(indexes.contains { !$0.contains("UNIQUE") && $0.contains("INDEX Book_author_index") && $0.hasSuffix("(author\(nulls))") }, "\(indexes)")
        let sampleStore = try TemporaryStore(location)
        _ = try sampleStore.open(entities: [Sample.self])
        let columns = try sampleStore.columns("Sample")
        #expect(!columns.contains("scratch"))
        #expect(columns.contains("score"))
        #expect(try sampleStore.indexDefinitions("Sample").contains { $0.contains("Sample_score_index") && $0.hasSuffix("(score\(nulls))") })
    }

    /// Text of every length (Swift's inline small strings and heap strings), empty, with a NUL,
    /// quotes or decomposed accents arrives byte for byte, and cached statements reused for
    /// later rows never mix one row's text into another's.
    @Test(arguments: [Location.file, .postgres])
    func textOfEveryShapeRoundTripsThroughAReopenedStore(_ location: Location) throws {
        let store = try TemporaryStore(location)
        let texts = (0..<200).map { length in String(repeating: ["a", "é", "東", "🙂"][length % 4], count: length) }
            + ["", " ", location == .postgres ? "no NUL" : "\0inside", "O'Brien; DROP TABLE Sample", "Jose\u{301}", "José"]
        do {
            let context = try store.open(entities: [Sample.self]).newContext()
            for (index, text) in texts.enumerated() {
                let sample = context.insert(Sample.self)
                (sample.name, sample.note) = ("n\(index)", text)
            }
            try context.save()
            let renamed = try context.fetch(FetchRequest<Sample>(predicate: \.$name == "n3"))
            renamed.first?.note = nil
            try context.save()
        }
        let context = try store.open(entities: [Sample.self]).newContext()
        let stored = try context.fetch(FetchRequest<Sample>())
        let notes = Dictionary(uniqueKeysWithValues: stored.map { ($0.name, $0.note.map { Array($0.utf8) }) })
        for (index, text) in texts.enumerated() where index != 3 {
            #expect(notes["n\(index)"] == .some(Array(text.utf8)), "text \(index)")
        }
        #expect(notes["n3"] == .some(nil))
        let matched = try context.fetch(FetchRequest<Sample>(predicate: \.$note == texts[150]))
        #expect(matched.map(\.name) == ["n150"])
    }

    /// PostgreSQL's text cannot hold a NUL: the save is refused with PostgreSQL's SQLSTATE and
    /// writes nothing, where binding it as a C string would have stored the text cut short.
    @Test func textWithANULIsRefusedByPostgreSQL() throws {
        let store = try TemporaryStore(.postgres)
        let context = try store.open(entities: [Sample.self]).newContext()
        context.insert(Sample.self).name = "kept"
        try context.save()
        let sample = context.insert(Sample.self)
        (sample.name, sample.note) = ("cut", "before\0after")
        let error = #expect(throws: GraphStoreError.self) { try context.save() }
        guard case .writeFailed(let failure) = error else { Issue.record("expected writeFailed, got \(String(describing: error))"); return }
        #expect(failure.sqlState == "22021")  // character_not_in_repertoire
        #expect(failure.message.contains("NUL"))
        #expect(try store.open(entities: [Sample.self]).newContext().all(Sample.self).map(\.name) == ["kept"])
    }
}
