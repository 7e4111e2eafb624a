import Foundation
import GraphStore
import Synchronization
import PhotoSyncTestSupport
import Testing

/// What SQLite never had: several containers (each with connections of its own, as separate
/// processes would) writing one PostgreSQL store at once, each from a thread of its own. Whatever
/// the interleaving, the store ends as some serial order of the saves would leave it, and the only
/// errors are the ones the merge policy itself decides (a unique violation or a serialization
/// failure makes a save run again from its lookups).
@Suite(.onTestThreads) struct PostgresConcurrencyTests {
    static let workers = 4
    static let rounds = 4

    // MARK: - Overlapping unique keys

    /// Worker `w` saves keys `w*10 ..< w*10+30` of the round (each overlaps its neighbours) with
    /// the value "w": authors by name, or events by (source, externalID). The survivors are those
    /// of a serial order; under `.error` exactly the saves that order rejects report conflicts, on
    /// the keys it names, and nothing else fails.
    @Test(arguments: [MergePolicy.objectTrump, .storeTrump, .error], UniqueKey.allCases)
    func overlappingUniqueKeysEndAsASerialRunWould(_ policy: MergePolicy, _ unique: UniqueKey) throws {
        let store = try TestStore(.postgres)
        let containers = try (0..<Self.workers).map { _ in try store.open() }
        for round in 0..<Self.rounds {
            let keys = (0..<Self.workers).map { worker in Array(worker * 10..<worker * 10 + 30) }
            let outcomes = atOnce(Self.workers) { worker in
                outcome {
                    let context = containers[worker].newContext(mergePolicy: policy)
                    for key in keys[worker] { unique.insert(round: round, key: key, value: "w\(worker)", into: context) }
                    try context.save()
                }
            }
            let (count, values) = try unique.stored(round: round, in: store.reader())
            #expect(count == values.count, "round \(round): no duplicate keys")
            let named = keys.map { $0.map { "r\(round)-\($0)" } }
            let serial = Self.permutations(Array(0..<Self.workers)).map { Self.serialRun($0, named, policy) }
            #expect(serial.contains { $0.values == values && $0.outcomes == outcomes },
                    "round \(round) under \(policy): \(outcomes), \(values.count) keys match no serial order")
        }
    }

    /// The values and outcomes the saves leave when they run one after another in `order`.
    private static func serialRun(_ order: [Int], _ keys: [[String]], _ policy: MergePolicy) -> (values: [String: String], outcomes: [SaveOutcome]) {
        var values: [String: String] = [:]
        var outcomes = Array(repeating: SaveOutcome.saved, count: keys.count)
        for worker in order {
            let present = Set(keys[worker]).intersection(values.keys)
            switch policy {
            case .objectTrump:
                for name in keys[worker] { values[name] = "w\(worker)" }
            case .storeTrump:
                for name in keys[worker] where values[name] == nil { values[name] = "w\(worker)" }
            default:
                if present.isEmpty { for name in keys[worker] { values[name] = "w\(worker)" } } else { outcomes[worker] = .conflicts(present) }
            }
        }
        return (values, outcomes)
    }

    // MARK: - Owners emptied by concurrent deletes

    /// Each worker deletes one player of team "T" (so together all of them) and one of team "K"
    /// (which keeps one). `deletesOwnerWhenEmpty` reads what the other saves change: at
    /// `SERIALIZABLE` one of them runs again and deletes "T"; "K" stays with its last player.
    @Test func concurrentDeletesEmptyingAnOwnerLeaveNoEmptyOwner() throws {
        let store = try TestStore(.postgres, entities: [Team.self, Player.self])
        let containers = try (0..<Self.workers).map { _ in try store.open() }
        for round in 0..<Self.rounds {
            let seeding = try store.open().newContext()
            let (emptied, kept) = (seeding.insert(Team.self), seeding.insert(Team.self))
            (emptied.name, kept.name) = ("T\(round)", "K\(round)")
            for index in 0..<Self.workers * 2 + 1 {
                let player = seeding.insert(Player.self)
                player.number = round * 100 + index
                player.team = index < Self.workers ? emptied : kept
            }
            try seeding.save()
            let outcomes = atOnce(Self.workers) { worker in
                outcome {
                    let context = containers[worker].newContext()
                    let numbers = [round * 100 + worker, round * 100 + Self.workers + worker]
                    for player in try context.all(Player.self, where: .isIn(\.$number, numbers)) { context.delete(player) }
                    try context.save()
                }
            }
            #expect(outcomes.allSatisfy { $0 == .saved }, "round \(round): \(outcomes)")
            let reader = try store.reader()
            let teams = try reader.all(Team.self, sortBy: [.ascending(\.$name)], where: .beginsWith(\.$name, "T\(round)") || .beginsWith(\.$name, "K\(round)"))
            #expect(teams.map(\.name) == ["K\(round)"], "round \(round)")
            #expect(teams.first?.players.map(\.number) == [round * 100 + Self.workers * 2], "round \(round)")
            #expect(try reader.count(FetchRequest<Team>(predicate: !.any(\.$players, .all))) == 0, "round \(round): no empty team")
        }
    }

    // MARK: - An import session racing a context

    /// An import session saves films 0..<40 of studio "S" in pages of 10 while another
    /// container's context saves films 20..<60 of the same studio, both `.objectTrump`. The
    /// context's one save lands between two of the session's pages: the overlapping films before
    /// that point carry the context's titles, the later ones the session's; one studio, no error.
    @Test func anImportSessionRacingAContextEndsAsASerialRunWould() throws {
        let store = try TestStore(.postgres, entities: ImportSessionTests.entities)
        let (importing, saving) = (try store.open(), try store.open())
        for round in 0..<Self.rounds {
            let code = { @Sendable (index: Int) in "r\(round)-\(index)" }
            let studio = "S\(round)"
            let outcomes = atOnce(2) { worker in
                outcome {
                    if worker == 0 {
                        try importing.importing(mergePolicy: .objectTrump) { session in
                            for page in 0..<4 {
                                let batch = Batch((page * 10..<page * 10 + 10).map { Item(code: code($0), title: "import", studio: studio) })
                                try session.save(batch.studios, batch.films)
                            }
                        }
                    } else {
                        let context = saving.newContext(mergePolicy: .objectTrump)
                        let owner = context.insert(Studio.self)
                        (owner.name, owner.city) = (studio, "Lisbon")
                        for index in 20..<60 {
                            let film = context.insert(Film.self)
                            (film.code, film.title, film.studio) = (code(index), "context", owner)
                        }
                        try context.save()
                    }
                }
            }
            #expect(outcomes == [.saved, .saved], "round \(round)")
            let reader = try store.reader()
            let films = try reader.all(Film.self, where: .beginsWith(\.$code, "r\(round)-"))
            let titles = Dictionary(films.map { ($0.code, $0.title) }, uniquingKeysWith: { _, _ in "duplicate" })
            #expect(films.count == 60 && titles.count == 60, "round \(round)")
            #expect(Set(films.map { $0.studio?.name }) == [studio], "round \(round)")
            #expect(try reader.count(FetchRequest<Studio>(predicate: \.$name == studio)) == 1, "round \(round)")
            let serial = (0...4).map { pagesBefore in
                Dictionary(uniqueKeysWithValues: (0..<60).map { index in
                    (code(index), index >= 40 || (index >= 20 && index < pagesBefore * 10) ? "context" : "import")
                })
            }
            let contextTitled = titles.filter { $0.value == "context" }.keys.sorted()
            #expect(serial.contains { $0 == titles }, "round \(round): films titled by the context \(contextTitled) match no serial order")
        }
    }

    // MARK: - Helpers

    static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
}

/// A single unique attribute (`Author.name`) or a composite constraint (`Event.source, externalID`).
enum UniqueKey: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case single, composite
    var testDescription: String { rawValue }

    /// Inserts the object of key "r<round>-<key>" holding `value`.
    func insert(round: Int, key: Int, value: String, into context: ObjectContext) {
        switch self {
        case .single:
            let author = context.insert(Author.self)
            (author.name, author.country) = ("r\(round)-\(key)", value)
        case .composite:
            let event = context.insert(Event.self)
            (event.source, event.externalID, event.title) = ("r\(round)", key, value)
        }
    }

    /// The round's stored objects: how many, and each key's value.
    func stored(round: Int, in context: ObjectContext) throws -> (count: Int, values: [String: String]) {
        let pairs = switch self {
        case .single: try context.all(Author.self, where: .beginsWith(\.$name, "r\(round)-")).map { ($0.name, $0.country ?? "") }
        case .composite: try context.all(Event.self, where: \.$source == "r\(round)").map { ("\($0.source)-\($0.externalID)", $0.title) }
        }
        return (pairs.count, Dictionary(pairs, uniquingKeysWith: { _, _ in "duplicate" }))
    }
}

/// How one worker's save ended.
enum SaveOutcome: Equatable, Sendable, CustomStringConvertible {
    case saved
    /// The merge policy's own refusal (`.error`): the constrained values it named, joined by "-".
    case conflicts(Set<String>)
    case failed(String)

    var description: String {
        switch self {
        case .saved: "saved"
        case .conflicts(let values): "conflicts on \(values.count) keys"
        case .failed(let reason): "failed: \(reason)"
        }
    }
}

func outcome(_ body: () throws -> Void) -> SaveOutcome {
    do {
        try body()
        return .saved
    } catch GraphStoreError.constraintConflicts(let conflicts) {
        return .conflicts(Set(conflicts.map { $0.values.joined(separator: "-") }))
    } catch {
        return .failed("\(error)")
    }
}

/// Runs `body(0) ... body(count - 1)` on threads of their own, released together; waits for all.
func atOnce<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = Mutex<[Int: T]>([:])
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            start.wait()
            let result = body(index)
            results.withLock { $0[index] = result }
            done.leave()
        }.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
    return results.withLock { results in (0..<count).map { results[$0]! } }
}
