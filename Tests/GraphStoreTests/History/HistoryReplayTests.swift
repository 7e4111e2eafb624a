import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// The "done when": a seeded random run of context saves, imports, deletes (cascades and
/// emptied owners), key changes, row updates and rolled-back saves; replaying the history from an
/// empty store gives exactly the keys stored, and every tombstone and tracked before/after agrees
/// with a plain snapshot of the store taken around each step.
@Suite("Persistent history: random replay", .onTestThreads)
struct HistoryReplayTests {
    @Test(arguments: historyLocations)
    func replayingTheHistoryReproducesTheStore(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        var run = ReplayRun(container: container, random: SplitMix(seed: 26))
        for _ in 0..<150 {
            let before = try Snapshot(container)
            let token = try container.currentHistoryToken()
            try run.step()
            let after = try Snapshot(container)
            try checkValues(container.history(after: token).transactions, before: before, after: after)
        }
        var replayed: [String: Set<String>] = [:]
        for transaction in try container.allHistory() {
            // A transaction's key changes happen together (a swap): all old keys go, then the new come.
            for change in transaction.changes { try replay(change, into: &replayed, phase: 0) }
            for change in transaction.changes { try replay(change, into: &replayed, phase: 1) }
        }
        let final = try Snapshot(container)
        #expect(replayed["Picture", default: []] == Set(final.pictures.keys))
        #expect(replayed["Shooter", default: []] == final.shooters)
        #expect(replayed["Caption", default: []] == final.captions)
        #expect(run.counts.values.allSatisfy { $0 > 0 }, "every kind of step ran: \(run.counts)")
    }

    /// Phase 0 takes the keys a change removes (deletes, old keys), phase 1 adds the new ones:
    /// within a transaction the keys change together (a swap parks one key on the way).
    private func replay(_ change: HistoryChange, into keys: inout [String: Set<String>], phase: Int) throws {
        let keyName = change.entity == "Picture" ? "code" : "name"
        let renamed = change.values[keyName].flatMap { if case .text(let old) = $0.before { old } else { nil } }
        switch (change.kind, phase) {
        case (.deleted, 0):
            #expect(keys[change.entity]?.remove(change.textKey) != nil, "\(change) deleted but absent")
        case (.updated, 0):
            if let renamed { #expect(keys[change.entity]?.remove(renamed) != nil, "\(change) renamed an absent key") }
        case (.inserted, 1):
            #expect(keys[change.entity, default: []].insert(change.textKey).inserted, "\(change) inserted twice")
        case (.updated, 1):
            if renamed != nil { #expect(keys[change.entity, default: []].insert(change.textKey).inserted, "\(change) renamed onto a key") }
        default:
            break
        }
    }

    /// Tombstones hold the values stored before the step; tracked values match both snapshots.
    private func checkValues(_ transactions: [HistoryTransaction], before: Snapshot, after: Snapshot) throws {
        for change in transactions.flatMap(\.changes) where change.entity == "Picture" {
            switch change.kind {
            case .deleted:
                let stored = try #require(before.pictures[change.textKey])
                #expect(change.tombstone == ["code": .text(change.textKey), "title": .text(stored.title), "shooter": stored.shooter.map(StoredValue.text) ?? .null])
            case .updated:
                let old = change.values["code"].map { if case .text(let code) = $0.before { code } else { "" } } ?? change.textKey
                let (was, now) = (try #require(before.pictures[old]), try #require(after.pictures[change.textKey]))
                if let title = change.values["title"] { #expect(title == .init(before: .text(was.title), after: .text(now.title))) }
                if let shooter = change.values["shooter"] {
                    #expect(shooter == .init(before: was.shooter.map(StoredValue.text) ?? .null, after: now.shooter.map(StoredValue.text) ?? .null))
                }
                #expect(change.changedAttributes.contains("title") == (was.title != now.title))
            case .inserted:
                #expect(before.pictures[change.textKey] == nil && after.pictures[change.textKey] != nil)
            }
        }
        for change in transactions.flatMap(\.changes) where change.entity == "Shooter" && change.kind == .deleted {
            #expect(before.shooters.contains(change.textKey) && change.tombstone == ["name": .text(change.textKey)])
        }
    }
}

/// What the store holds, read plainly.
struct Snapshot {
    var pictures: [String: (title: String, shooter: String?)] = [:]
    var shooters: Set<String> = []
    var captions: Set<String> = []

    init(_ container: PersistentContainer) throws {
        let context = container.newContext()
        for picture in try context.all(Picture.self) { pictures[picture.code] = (picture.title, picture.shooter?.name) }
        shooters = Set(try context.all(Shooter.self).map(\.name))
        captions = Set(try context.all(Caption.self).map { String($0.objectID.rowID ?? -1) })
    }
}

/// A small seeded generator (SplitMix64), so a failing run can be run again.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
