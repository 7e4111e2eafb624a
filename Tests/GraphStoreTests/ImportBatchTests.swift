import Foundation
import GraphStore
import PhotoSyncTestSupport
import Testing

/// A row of every storage class, for the set-based writes' array encoding.
final class BatchSample: ManagedObject {
    @Attribute(.unique) var key = ""
    @Attribute var text = ""
    @Attribute var number = 0
    @Attribute var ratio = 0.0
    @Attribute var bytes = Data()
    @Attribute var when: Date? = nil
}

/// An import's rows reach PostgreSQL as arrays joined with `unnest` (issue 24): every value must
/// come back as it went in, on every store, and the counts must be those of a row-at-a-time write.
@Suite(.onTestThreads) struct ImportBatchTests {
    private static let texts = ["", "NULL", "\"quoted\"", "back\\slash", "{braces,commas}", "ünïcödé ✓", " spaced ", "'single'"]

    private func records(_ count: Int, suffix: String) -> ImportRecords<BatchSample> {
        var records = ImportRecords(BatchSample.self, key: \.$key)
        let (text, number, ratio, bytes, when) = (records.field(\.$text), records.field(\.$number), records.field(\.$ratio),
                                                  records.field(\.$bytes), records.field(\.$when))
        for index in 0..<count {
            records.append("k\(index)") { sample in
                sample[text] = Self.texts[index % Self.texts.count] + suffix
                sample[number] = index % 3 == 0 ? Int.min + index : index
                sample[ratio] = index % 5 == 0 ? -0.0 : Double(index) / 7
                sample[bytes] = Data([0, 1, 0x5c, 0x22, UInt8(index % 256)])
                sample[when] = index % 4 == 0 ? nil : Date(timeIntervalSince1970: Double(index) * 1.5)
            }
        }
        return records
    }

    private func expectStored(_ store: TestStore, _ count: Int, suffix: String) throws {
        let samples = try store.reader().all(BatchSample.self)
        #expect(samples.count == count)
        for sample in samples {
            let index = try #require(Int(sample.key.dropFirst()))
            #expect(sample.text == Self.texts[index % Self.texts.count] + suffix)
            #expect(sample.number == (index % 3 == 0 ? Int.min + index : index))
            #expect(sample.ratio == (index % 5 == 0 ? -0.0 : Double(index) / 7))
            #expect(sample.bytes == Data([0, 1, 0x5c, 0x22, UInt8(index % 256)]))
            #expect(sample.when == (index % 4 == 0 ? nil : Date(timeIntervalSince1970: Double(index) * 1.5)))
        }
    }

    /// More rows than one batch sends at once (5,000), inserted, then updated in place.
    @Test(arguments: [Location.file, .postgres])
    func everyValueSurvivesInsertAndUpdate(_ location: Location) throws {
        let store = try TestStore(location, entities: [BatchSample.self])
        let count = 6_001
        let first = try store.open().importing(mergePolicy: .objectTrump) { try $0.save(records(count, suffix: "")) }
        #expect(first.counts(BatchSample.self).inserted == count)
        try expectStored(store, count, suffix: "")
        let second = try store.open().importing(mergePolicy: .objectTrump) { try $0.save(records(count, suffix: "+")) }
        #expect(second.counts(BatchSample.self).updated == count)
        #expect(second.counts(BatchSample.self).inserted == 0)
        try expectStored(store, count, suffix: "+")
    }

    @Test(arguments: [Location.file, .postgres])
    func aMigratedCopyHoldsTheSameValues(_ location: Location) throws {
        let source = try TestStore(.file, entities: [BatchSample.self])
        try source.open().importing(mergePolicy: .objectTrump) { try $0.save(records(700, suffix: "")) }
        let destination = try TestStore(location, entities: [BatchSample.self])
        #expect(try source.open().copyContents(into: destination.open())["BatchSample"] == 700)
        try expectStored(destination, 700, suffix: "")
    }

    @Test func textWithNULIsRefusedOnPostgreSQL() throws {
        let store = try TestStore(.postgres, entities: [BatchSample.self])
        var records = ImportRecords(BatchSample.self, key: \.$key)
        let text = records.field(\.$text)
        records.append("nul") { $0[text] = "a\u{0}b" }
        #expect(throws: GraphStoreError.self) { try store.open().importing(mergePolicy: .objectTrump) { try $0.save(records) } }
        #expect(try store.reader().all(BatchSample.self).isEmpty)
    }
}
