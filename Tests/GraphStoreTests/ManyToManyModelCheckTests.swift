import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A seeded sequence of inserts, links, unlinks, replacements and deletes on `Note.labels` ↔
/// `Label.notes`, applied both to a context and to a plain Swift set of pairs. Both sides of the
/// context must agree with the set after every operation, and the reopened store after every save.
/// Some rounds run in a child context (saved, then its parent), some end in a rollback instead.
/// Key changes are among the operations (renames, swaps, chains, old keys re-inserted, assigned
/// in a random order): a save must not depend on the order of assignments.
@Suite(.onTestThreads) struct ManyToManyModelCheckTests {
    struct Pair: Hashable, Comparable {
        let note: String
        let label: String
        static func < (a: Pair, b: Pair) -> Bool { (a.note, a.label) < (b.note, b.label) }
    }

    /// What the relationship should be: the live objects and their pairs.
    struct Expected {
        var notes: Set<String> = []
        var labels: Set<String> = []
        var pairs: Set<Pair> = []

        func labels(of note: String) -> [String] { pairs.filter { $0.note == note }.map(\.label).sorted() }
        func notes(of label: String) -> [String] { pairs.filter { $0.label == label }.map(\.note).sorted() }
    }

    /// Seeds 1 and 7 each once caught a child pushing a link to a new object it had deleted.
    @Test(arguments: Location.allCases, [UInt64(1), 7, 0x6D2D_0012])
    func randomOperationsMatchAPlainModelAfterEveryOperationAndSave(_ location: Location, _ seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let store = try TestStore(location, entities: manyToManyEntities)
        var expected = Expected()
        var created = 0
        var largest = 0
        var ran = Set<Int>()
        var modes: [Mode: Int] = [:]
        var keyChanges = 0
        for round in 0..<40 {
            let mode = [Mode.save, .save, .save, .child, .child, .rollback].randomElement(using: &random)!
            modes[mode, default: 0] += 1
            let before = expected
            let parent = try store.open().newContext()
            let context = mode == .child ? parent.newChildContext() : parent
            var notes = Dictionary(uniqueKeysWithValues: try context.all(Note.self).map { ($0.slug, $0) })
            var labels = Dictionary(uniqueKeysWithValues: try context.all(Label.self).map { ($0.name, $0) })
            for step in 0..<Int.random(in: 1...8, using: &random) {
                // Weighted towards links, so a graph builds up despite the deletes.
                var operation = [0, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12, 12].randomElement(using: &random)!
                if operation == 12 {  // one key change, the five kinds in turn
                    keyChanges += 1
                    operation = 12 + keyChanges % 5
                }
                let note = notes.keys.sorted().randomElement(using: &random)
                let label = labels.keys.sorted().randomElement(using: &random)
                switch operation {
                case 0, 1:
                    created += 1
                    let new = context.insert(Note.self)
                    new.slug = "n\(created)"
                    notes[new.slug] = new
                    expected.notes.insert(new.slug)
                case 2:
                    created += 1
                    let new = context.insert(Label.self)
                    new.name = "l\(created)"
                    labels[new.name] = new
                    expected.labels.insert(new.name)
                case 3, 4, 5:
                    guard let note, let label else { continue }
                    if Bool.random(using: &random) { notes[note]!.$labels.insert(labels[label]!) } else { labels[label]!.$notes.insert(notes[note]!) }
                    expected.pairs.insert(Pair(note: note, label: label))
                case 6, 7:
                    guard let note, let label else { continue }
                    if Bool.random(using: &random) { notes[note]!.$labels.remove(labels[label]!) } else { labels[label]!.$notes.remove(notes[note]!) }
                    expected.pairs.remove(Pair(note: note, label: label))
                case 8:
                    guard let note else { continue }
                    let chosen = labels.keys.sorted().filter { _ in Bool.random(using: &random) }
                    notes[note]!.labels = chosen.map { labels[$0]! }
                    expected.pairs = expected.pairs.filter { $0.note != note }.union(chosen.map { Pair(note: note, label: $0) })
                case 9:
                    guard let note else { continue }
                    context.delete(notes.removeValue(forKey: note)!)
                    expected.notes.remove(note)
                    expected.pairs = expected.pairs.filter { $0.note != note }
                case 10:
                    guard let label else { continue }
                    context.delete(labels.removeValue(forKey: label)!)
                    expected.labels.remove(label)
                    expected.pairs = expected.pairs.filter { $0.label != label }
                case 12, 13, 14, 15, 16:
                    // Key changes (issue 30): a rename, a swap, a chain, an old key re-inserted, a label swap.
                    guard changeKeys(operation, &notes, &labels, &expected, &created, context, &random) else { continue }
                default:
                    guard let label else { continue }
                    let chosen = notes.keys.sorted().filter { _ in Bool.random(using: &random) }
                    labels[label]!.notes = chosen.map { notes[$0]! }
                    expected.pairs = expected.pairs.filter { $0.label != label }.union(chosen.map { Pair(note: $0, label: label) })
                }
                ran.insert(operation)
                let where_ = "round \(round), step \(step), operation \(operation)"
                #expect(try view(notes: Array(notes.values), labels: Array(labels.values)) == view(expected), "in memory, \(where_)")
            }
            switch mode {
            case .save: try context.save()
            case .child:
                try context.save()
                #expect(try view(notes: parent.all(Note.self), labels: parent.all(Label.self)) == view(expected), "parent, round \(round)")
                try parent.save()
            case .rollback:
                context.rollback()
                expected = before
                #expect(try view(notes: context.all(Note.self), labels: context.all(Label.self)) == view(expected), "rolled back, round \(round)")
            }
            let reader = try store.reader()
            let stored = try view(notes: reader.all(Note.self), labels: reader.all(Label.self))
            #expect(stored == view(expected), "stored, round \(round)")
            largest = max(largest, expected.pairs.count)
        }
        // The sequence did build a graph, with every kind of operation.
        #expect(largest >= 5)
        #expect(ran == Set(0...16))
        #expect(modes.count == 3)
    }

    enum Mode { case save, child, rollback }

    /// Changes unique keys in the context and in `expected` alike; false when too few objects exist.
    private func changeKeys(
        _ operation: Int, _ notes: inout [String: Note], _ labels: inout [String: Label], _ expected: inout Expected,
        _ created: inout Int, _ context: ObjectContext, _ random: inout SeededRandom
    ) -> Bool {
        let slugs = notes.keys.sorted().shuffled(using: &random)
        func fresh() -> String {
            created += 1
            return "n\(created)"
        }
        var renames: [String: String] = [:]
        switch operation {
        case 12:
            guard let a = slugs.first else { return false }
            renames = [a: fresh()]
        case 13:
            guard slugs.count >= 2 else { return false }
            renames = [slugs[0]: slugs[1], slugs[1]: slugs[0]]
        case 14:
            guard slugs.count >= 2 else { return false }
            renames = [slugs[0]: fresh(), slugs[1]: slugs[0]]  // b takes a's key, a moves on
        case 15:
            guard let a = slugs.first else { return false }
            renames = [a: fresh()]
        default:
            while labels.count < 2 {  // a swap needs two
                created += 1
                let label = context.insert(Label.self)
                label.name = "l\(created)"
                labels[label.name] = label
                expected.labels.insert(label.name)
            }
            let names = labels.keys.sorted().shuffled(using: &random)
            let (a, b) = (labels[names[0]]!, labels[names[1]]!)
            // Assigned one way or the other: the save must not depend on the order.
            if Bool.random(using: &random) { (a.name, b.name) = (names[1], names[0]) } else { (b.name, a.name) = (names[0], names[1]) }
            labels = [names[0]: b, names[1]: a].merging(labels.filter { !names.prefix(2).contains($0.key) }) { first, _ in first }
            expected.pairs = Set(expected.pairs.map { pair in
                Pair(note: pair.note, label: pair.label == names[0] ? names[1] : pair.label == names[1] ? names[0] : pair.label)
            })
            return true
        }
        let order = renames.keys.sorted().shuffled(using: &random)
        let objects = order.map { notes[$0]! }
        for (object, old) in zip(objects, order) { object.slug = renames[old]! }
        notes = Dictionary(uniqueKeysWithValues: notes.values.map { ($0.slug, $0) })
        expected.notes = Set(expected.notes.map { renames[$0] ?? $0 })
        expected.pairs = Set(expected.pairs.map { Pair(note: renames[$0.note] ?? $0.note, label: $0.label) })
        if operation == 15 {
            let old = order[0]
            let new = context.insert(Note.self)
            new.slug = old  // the key just given up, taken by a new object in the same save
            notes[old] = new
            expected.notes.insert(old)
        }
        return true
    }

    /// Each object with its partners' names, from both sides (deleted objects not yet saved are left out).
    private func view(notes: [Note], labels: [Label]) -> [String] {
        let live = { (object: ManagedObject) in !object.isDeleted }
        return notes.filter(live).map { "\($0.slug): \($0.labels.filter(live).map(\.name).sorted())" }.sorted()
            + labels.filter(live).map { "\($0.name): \($0.notes.filter(live).map(\.slug).sorted())" }.sorted()
    }

    private func view(_ expected: Expected) -> [String] {
        expected.notes.map { "\($0): \(expected.labels(of: $0))" }.sorted() + expected.labels.map { "\($0): \(expected.notes(of: $0))" }.sorted()
    }
}
