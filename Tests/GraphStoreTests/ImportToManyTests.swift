import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// Notes and their labels as import records: each note names its complete label set (nil: none given).
struct NoteRecords {
    var labels = ImportRecords(Label.self, key: \.$name)
    var notes = ImportRecords(Note.self, key: \.$slug)

    init(_ notes: [(slug: String, labels: [String]?)] = []) {
        for (slug, names) in notes { add(slug, names) }
    }

    mutating func add(_ slug: String, _ names: [String]?, title: String? = nil) {
        let (members, titleField) = (notes.members(\.$labels), notes.field(\.$title))
        let references = names?.map { labels.append($0) }
        notes.append(slug) { note in
            note[members] = references
            if let title { note[titleField] = title }
        }
    }
}

@Suite("Import sessions: many-to-many sets", .onTestThreads)
struct ImportToManyTests {
    static let entities: [ManagedObject.Type] = [Label.self, Note.self]

    /// A store holding `n1` labelled a, b and `n2` with no label (written through a context).
    static func seeded(_ location: Location) throws -> TestStore {
        let store = try TestStore(location, entities: entities)
        let context = try store.open().newContext()
        let (a, b) = (context.insert(Label.self), context.insert(Label.self))
        (a.name, b.name) = ("a", "b")
        let (n1, n2) = (context.insert(Note.self), context.insert(Note.self))
        (n1.slug, n2.slug) = ("n1", "n2")
        n1.labels = [a, b]
        try context.save()
        return store
    }

    /// Note slug → its labels' names, sorted, read back from the store.
    static func pairs(_ store: TestStore) throws -> [String: [String]] {
        let context = try store.reader()
        return Dictionary(uniqueKeysWithValues: try context.all(Note.self).map { ($0.slug, $0.labels.sortedNames(\.name)) })
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let policy: MergePolicy
        let slug: String
        let given: [String]?
        let labels: [String]
        /// inserted, updated, unchanged
        let counts: [Int]
        var testDescription: String { "\(policy) \(slug) given \(given.map { "\($0)" } ?? "nil")" }
    }

    static let cases: [Case] = [
        // A stored note, set given, unchanged, emptied, or given as it is.
        Case(policy: .objectTrump, slug: "n1", given: ["b", "c"], labels: ["b", "c"], counts: [0, 1, 0]),
        Case(policy: .objectTrump, slug: "n1", given: nil, labels: ["a", "b"], counts: [0, 0, 1]),
        Case(policy: .objectTrump, slug: "n1", given: [], labels: [], counts: [0, 1, 0]),
        Case(policy: .objectTrump, slug: "n1", given: ["b", "a", "a"], labels: ["a", "b"], counts: [0, 0, 1]),
        Case(policy: .objectTrump, slug: "n2", given: ["c"], labels: ["c"], counts: [0, 1, 0]),
        Case(policy: .storeTrump, slug: "n1", given: ["b", "c"], labels: ["a", "b"], counts: [0, 0, 1]),
        Case(policy: .storeTrump, slug: "n1", given: nil, labels: ["a", "b"], counts: [0, 0, 1]),
        Case(policy: .storeTrump, slug: "n1", given: [], labels: ["a", "b"], counts: [0, 0, 1]),
        Case(policy: .storeTrump, slug: "n2", given: ["c"], labels: [], counts: [0, 0, 1]),
        // A new note gets the set given, under every policy.
        Case(policy: .objectTrump, slug: "n9", given: ["b", "c"], labels: ["b", "c"], counts: [1, 0, 0]),
        Case(policy: .objectTrump, slug: "n9", given: nil, labels: [], counts: [1, 0, 0]),
        Case(policy: .storeTrump, slug: "n9", given: ["b", "c"], labels: ["b", "c"], counts: [1, 0, 0]),
        Case(policy: .storeTrump, slug: "n9", given: [], labels: [], counts: [1, 0, 0]),
        Case(policy: .error, slug: "n9", given: ["x", "y"], labels: ["x", "y"], counts: [1, 0, 0]),
        Case(policy: .error, slug: "n9", given: nil, labels: [], counts: [1, 0, 0]),
    ]

    @Test(arguments: cases, [Location.memory, .file, .postgres])
    func aSetIsWrittenAsThePolicySays(_ row: Case, _ location: Location) throws {
        let store = try Self.seeded(location)
        let records = NoteRecords([(row.slug, row.given)])
        let result = try store.open().importing(mergePolicy: row.policy) { try $0.save(records.labels, records.notes) }
        let counts = result.counts(Note.self)
        #expect([counts.inserted, counts.updated, counts.unchanged] == row.counts)
        var expected = ["n1": ["a", "b"], "n2": []]
        expected[row.slug] = row.labels
        #expect(try Self.pairs(store) == expected)
        let updated = result.changes.updated(Note.self).count
        #expect(updated == row.counts[1], "an owner whose pairs changed is reported updated")
    }

    /// Under `.error` a stored note is a conflict: nothing of the save is written, pairs included.
    @Test(arguments: [Location.memory, .file, .postgres], [["x"], [], nil] as [[String]?])
    func errorReportsAStoredOwnerAndWritesNothing(_ location: Location, _ given: [String]?) throws {
        let store = try Self.seeded(location)
        let records = NoteRecords([("n9", ["x"]), ("n1", given)])
        #expect {
            try store.open().importing(mergePolicy: .error) { try $0.save(records.labels, records.notes) }
        } throws: { error in
            guard case GraphStoreError.constraintConflicts(let conflicts) = error else { return false }
            return conflicts.map(\.values) == [["n1"]]
        }
        #expect(try Self.pairs(store) == ["n1": ["a", "b"], "n2": []])
    }

    /// Repeats in one save and across saves: the policy's copy gives the set, as it gives values.
    @Test(arguments: [Location.memory, .file, .postgres], [MergePolicy.objectTrump, .storeTrump])
    func repeatsGiveTheSetOfTheCopyThePolicyPicks(_ location: Location, _ policy: MergePolicy) throws {
        let store = try Self.seeded(location)
        var first = NoteRecords([("n9", ["c"]), ("n9", ["x"]), ("n9", nil), ("n8", ["c"])])
        first.add("n1", ["x"])
        first.add("n1", ["a"])
        let second = NoteRecords([("n8", ["y"])])
        let counts = try store.open().importing(mergePolicy: policy) { session in
            try session.save(first.labels, first.notes)
            try session.save(second.labels, second.notes)
            return session.counts(Note.self)
        }
        let objectWins = policy == .objectTrump
        #expect(try Self.pairs(store) == ["n1": objectWins ? ["a"] : ["a", "b"], "n2": [],
                                          "n9": objectWins ? ["x"] : ["c"], "n8": objectWins ? ["y"] : ["c"]])
        #expect((counts.inserted, counts.updated, counts.unchanged, counts.repeated) == (2, objectWins ? 1 : 0, objectWins ? 0 : 1, 4))
    }

    /// A dry run counts what the real run would and leaves the pairs as they were.
    @Test(arguments: [Location.memory, .file, .postgres])
    func aDryRunLeavesThePairs(_ location: Location) throws {
        let store = try Self.seeded(location)
        let records = NoteRecords([("n1", ["c"]), ("n2", ["a"]), ("n9", ["a"])])
        let result = try store.open().importing(mergePolicy: .objectTrump, dryRun: true) { try $0.save(records.labels, records.notes) }
        #expect(result.counts(Note.self).updated == 2 && result.counts(Note.self).inserted == 1)
        #expect(try Self.pairs(store) == ["n1": ["a", "b"], "n2": []])
    }

    /// The side that does not name the pair gives sets too, and stored members whose pairs changed
    /// are reported updated (both ends, as a context's save reports them).
    @Test(arguments: [Location.memory, .file, .postgres])
    func theOtherSideGivesSetsAndBothEndsAreReported(_ location: Location) throws {
        let store = try Self.seeded(location)
        var notes = ImportRecords(Note.self, key: \.$slug)
        var labels = ImportRecords(Label.self, key: \.$name)
        let members = labels.members(\.$notes)
        let (n2, n7) = (notes.append("n2"), notes.append("n7"))
        labels.append("a") { $0[members] = [n2, n7] }
        let result = try store.open().importing(mergePolicy: .objectTrump) { try $0.save(notes, labels) }
        #expect(try Self.pairs(store) == ["n1": ["b"], "n2": ["a"], "n7": ["a"]])
        #expect(result.counts(Label.self).updated == 1)
        #expect(result.changes.updated(Note.self).count == 2, "n1 lost its pair, n2 gained one; n7 is inserted")
    }

    /// A set naming records that are not part of the save stops the process, as a to-one link does.
    @Test func membersMissingFromTheSaveStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: ImportToManyTests.entities), location: .inMemory)
            let records = NoteRecords([("n1", ["a"])])
            _ = try container.importing(mergePolicy: .objectTrump) { try $0.save(records.notes) }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Note records give members of labels from Label records missing from this save"), "stderr: \(message)")
    }

    /// Persistent history records an import's pairs as it records a context's: a link or unlink is
    /// an update of each object it links (its to-many among the changed attributes), not of an
    /// object inserted in the same transaction; the same change made both ways leaves the same history.
    @Test(arguments: [Location.file, .postgres])
    func historyRecordsPairsAsAContextSaveDoes(_ location: Location) throws {
        var recorded: [[String]] = []
        for throughImport in [false, true] {
            let temporary = try TemporaryStore(location)
            let container = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: Self.entities), location: temporary.location,
                                                    tracksHistory: true)
            let context = container.newContext()
            let (a, b) = (context.insert(Label.self), context.insert(Label.self))
            (a.name, b.name) = ("a", "b")
            let n1 = context.insert(Note.self)
            (n1.slug, n1.labels) = ("n1", [a, b])
            try context.save()
            if throughImport {
                let records = NoteRecords([("n1", ["b", "c"])])
                _ = try container.importing(mergePolicy: .objectTrump) { try $0.save(records.labels, records.notes) }
            } else {
                let c = context.insert(Label.self)
                c.name = "c"
                n1.labels = [b, c]
                try context.save()
            }
            let last = try #require(container.allHistory().last)
            recorded.append(last.changes.map { "\($0.entity) \($0.textKey) \($0.kind) \($0.changedAttributes.sorted())" }.sorted())
        }
        #expect(recorded[0] == recorded[1])
        #expect(recorded[1] == ["Label a updated [\"notes\"]", "Label c inserted []", "Note n1 updated [\"labels\"]"], "\(recorded)")
    }
}
