import Foundation
import GraphStore
import GRDB
import PhotoSyncTestSupport
import Testing

final class Diary: ManagedObject {
    @Attribute(.unique) var key = ""
    @Attribute var written = Date(timeIntervalSince1970: 0)
    @Attribute var read: Date? = nil
}

final class Plain: ManagedObject {
    @Attribute(.unique) var key = ""
}

/// Dates come back `==` to the ones saved, and stores of the former encoding (seconds since 1970)
/// are converted once, reading back what they read before.
@Suite(.onTestThreads) struct DateEncodingTests {
    /// The issue's count: 499 of 1,000 such dates came back 1.2e-7 s off.
@Test(.onTestThreads, arguments: [Location.file, .postgres])
    func everyDateRoundTripsExactlyThroughAReopenedStore(_ location: Location) throws {
        let store = try TemporaryStore(location)
        var generator = SystemRandomNumberGenerator()
        // Dates of this century with sub-second digits, as `Date()` makes them (a whole second plus
        // a fraction: `Double.random(in:)` over the whole range would give only coarse multiples).
        let dates = (0..<1_000).map { _ in
            Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<900_000_000, using: &generator)) + Double.random(in: 0..<1, using: &generator))
        }
        do {
            let context = try store.open(entities: [Diary.self]).newContext()
            for (index, date) in dates.enumerated() {
                let diary = context.insert(Diary.self)
                diary.key = String(index)
                diary.written = date
                diary.read = date
            }
            try context.save()
        }
        let context = try store.open(entities: [Diary.self]).newContext()
        let read = try context.all(Diary.self).sorted { Int($0.key)! < Int($1.key)! }
        #expect(read.count == 1_000)
        #expect(zip(read, dates).filter { $0.written != $1 || $0.read != $1 }.count == 0)
        #expect(zip(read, dates).allSatisfy { $0.written.timeIntervalSinceReferenceDate.bitPattern == $1.timeIntervalSinceReferenceDate.bitPattern })
        // A predicate binds the same encoding: equality finds the row.
        #expect(try context.all(Diary.self, where: \.$written == dates[7]).map(\.key) == ["7"])
        #expect(try context.all(Diary.self, where: \.$read == dates[9]).map(\.key) == ["9"])
    }

    /// Rewrites a current store as the former encoding wrote it: dates as seconds since 1970, and a
    /// schema record without `format` or date marks.
    private func makeLegacy(_ store: TemporaryStore, dateColumns: [String]) throws {
        try DatabaseQueue(path: store.path).write { db in
            for column in dateColumns {
                let values = try Row.fetchAll(db, sql: "SELECT id, \"\(column)\" FROM Diary")
                for row in values {
                    let date = (row[1] as Double?).map { Date(timeIntervalSinceReferenceDate: $0) }
                    try db.execute(sql: "UPDATE Diary SET \"\(column)\" = ? WHERE id = ?", arguments: [date?.timeIntervalSince1970, row[0] as Int64])
                }
            }
            let text = try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'")!
            let legacy = text.replacing(#""format":2,"#, with: "").replacing(#""isDate":true,"#, with: "")
            #expect(!legacy.contains("format") && !legacy.contains("isDate"))
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [legacy])
        }
    }

    @Test func aStoreOfTheFormerEncodingIsConvertedOnceAndReadsTheSameDates() throws {
        let store = TemporaryStore()
        let seconds = [1_700_000_000.123_456_7, 978_307_200, 0.1, 1_234_567_890.5]
        do {
            let context = try store.open(entities: [Diary.self]).newContext()
            for (index, value) in seconds.enumerated() {
                let diary = context.insert(Diary.self)
                diary.key = String(index)
                diary.written = Date(timeIntervalSince1970: value)
                diary.read = index == 0 ? nil : Date(timeIntervalSince1970: value)
            }
            try context.save()
        }
        try makeLegacy(store, dateColumns: ["written", "read"])
        let legacySeconds = try DatabaseQueue(path: store.path).read { db in try Double.fetchAll(db, sql: "SELECT written FROM Diary ORDER BY id") }

        // A read-only open cannot convert: it says so.
        #expect {
            _ = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Diary.self]), location: .file(store.path), readOnly: true)
        } throws: { error in
            guard case GraphStoreError.incompatibleStore(let reason) = error else { return false }
            return reason.contains("former encoding")
        }
        // The first writable open converts; later opens (read-only too) read the same dates.
        _ = try store.open(entities: [Diary.self])
        let readOnly = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Diary.self]), location: .file(store.path), readOnly: true)
        let diaries = try readOnly.newContext().all(Diary.self).sorted { $0.key < $1.key }
        #expect(diaries.map(\.written) == legacySeconds.map { Date(timeIntervalSince1970: $0) })
        #expect(diaries.map(\.read) == [nil] + legacySeconds.dropFirst().map { Date(timeIntervalSince1970: $0) })
        let stored = try DatabaseQueue(path: store.path).read { db in try Double.fetchAll(db, sql: "SELECT written FROM Diary ORDER BY id") }
        #expect(stored == legacySeconds.map { Date(timeIntervalSince1970: $0).timeIntervalSinceReferenceDate })
    }

    /// Without dates nothing needs converting: a read-only open of such a store keeps working.
    @Test func aFormerStoreWithoutDatesOpensReadOnly() throws {
        let store = TemporaryStore()
        do {
            let context = try store.open(entities: [Plain.self]).newContext()
            context.insert(Plain.self).key = "a"
            try context.save()
        }
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: #"UPDATE graphstore_metadata SET value = replace(value, '"format":2,', '') WHERE key = 'schema'"#)
        }
        let readOnly = try PersistentContainer(model: ManagedObjectModel(version: 1, entities: [Plain.self]), location: .file(store.path), readOnly: true)
        #expect(try readOnly.newContext().all(Plain.self).map(\.key) == ["a"])
    }
}
