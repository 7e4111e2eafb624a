@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// The merge rules contexts and import sessions share (``MergePolicy`` + Rules), as one table:
/// every policy × a new or stored row (set or empty) × duplicates that assign the field or leave
/// it unassigned. `nil` in `offered` is a duplicate that left the field unassigned; `u` is the
/// survivor's own (unassigned) value of a new row.
@Suite(.onTestThreads) struct MergeRulesTests {
    /// A row of the table: the stored value (nil: a new row; "" an empty to-one), what duplicates
    /// offer in insertion order, and the outcome under `.error`/`.objectTrump`, then under
    /// `.storeTrump` for an attribute and for a to-one.
    struct Case: Sendable, CustomTestStringConvertible {
        let stored: String?
        let offered: [String?]
        let objectWins: String
        let storeTrumpAttribute: String
        let storeTrumpToOne: String
        var testDescription: String { "stored \(stored.map { "'\($0)'" } ?? "none"), offered \(offered)" }
    }

    static let cases: [Case] = [
        // A new row.
        Case(stored: nil, offered: [], objectWins: "u", storeTrumpAttribute: "u", storeTrumpToOne: "u"),
        Case(stored: nil, offered: [nil], objectWins: "u", storeTrumpAttribute: "u", storeTrumpToOne: "u"),
        Case(stored: nil, offered: ["a"], objectWins: "a", storeTrumpAttribute: "a", storeTrumpToOne: "a"),
        Case(stored: nil, offered: ["a", "b"], objectWins: "b", storeTrumpAttribute: "a", storeTrumpToOne: "a"),
        Case(stored: nil, offered: [nil, "b"], objectWins: "b", storeTrumpAttribute: "b", storeTrumpToOne: "b"),
        Case(stored: nil, offered: ["a", nil], objectWins: "a", storeTrumpAttribute: "a", storeTrumpToOne: "a"),
        Case(stored: nil, offered: ["a", nil, "c"], objectWins: "c", storeTrumpAttribute: "a", storeTrumpToOne: "a"),
        // A stored row with a value.
        Case(stored: "s", offered: [], objectWins: "s", storeTrumpAttribute: "s", storeTrumpToOne: "s"),
        Case(stored: "s", offered: [nil], objectWins: "s", storeTrumpAttribute: "s", storeTrumpToOne: "s"),
        Case(stored: "s", offered: ["a"], objectWins: "a", storeTrumpAttribute: "s", storeTrumpToOne: "s"),
        Case(stored: "s", offered: ["a", "b"], objectWins: "b", storeTrumpAttribute: "s", storeTrumpToOne: "s"),
        Case(stored: "s", offered: [nil, "b"], objectWins: "b", storeTrumpAttribute: "s", storeTrumpToOne: "s"),
        // A stored row whose field is empty: only a to-one is filled under store-trump (an empty
        // member set is a value, kept like an attribute's).
        Case(stored: "", offered: [], objectWins: "", storeTrumpAttribute: "", storeTrumpToOne: ""),
        Case(stored: "", offered: [nil], objectWins: "", storeTrumpAttribute: "", storeTrumpToOne: ""),
        Case(stored: "", offered: ["a"], objectWins: "a", storeTrumpAttribute: "", storeTrumpToOne: "a"),
        Case(stored: "", offered: ["a", "b"], objectWins: "b", storeTrumpAttribute: "", storeTrumpToOne: "a"),
        Case(stored: "", offered: [nil, "b"], objectWins: "b", storeTrumpAttribute: "", storeTrumpToOne: "b"),
    ]

    @Test(arguments: cases, [MergePolicy.error, .objectTrump, .storeTrump])
    func valuesWin(_ row: Case, _ policy: MergePolicy) {
        for field in MergePolicy.Field.allCases {
            let expected = policy != .storeTrump ? row.objectWins : field != .toOne ? row.storeTrumpAttribute : row.storeTrumpToOne
            let merged = policy.merged(row.offered)
            let outcome = policy.resolved(field, stored: row.stored, storedIsEmpty: row.stored == "", merged: merged, unassigned: "u")
            #expect(outcome == expected, "\(policy), \(field)")
        }
    }

    @Test(arguments: [(MergePolicy.error, 2), (.objectTrump, 2), (.storeTrump, 0)])
    func theSurvivorOfThreeDuplicates(_ policy: MergePolicy, _ survivor: Int) {
        #expect(policy.survivor(among: 3) == survivor)
        #expect(policy.survivor(among: 1) == 0)
    }

    static let conflicts: [(MergePolicy.KeyMeeting, [Bool])] = [
        // Reported under .error, .objectTrump, .storeTrump:
        (.newObject, [true, false, false]),
        (.storedRow(writtenBySameWork: false), [true, false, false]),
        (.storedRow(writtenBySameWork: true), [false, false, false]),
        (.movedKey, [true, true, true]),
    ]

    @Test(arguments: conflicts)
    func whatIsAConflict(_ meeting: MergePolicy.KeyMeeting, _ reported: [Bool]) {
        #expect([MergePolicy.error, .objectTrump, .storeTrump].map { $0.reportsConflict(meeting) } == reported)
    }
}
