import Foundation
@testable import GraphStore
import PhotoSyncTestSupport
import Testing

/// History's before-values read ahead of the writes (``HistoryWriter`` read-ahead): rows an import
/// session remembered from an earlier save are read in one query when a later save changes them.
@Suite("History of rows read ahead of their updates", .onTestThreads)
struct HistoryReadAheadTests {
    /// 120 shooters and their pictures; `city` gives each shooter's city.
    static func batch(_ city: (Int) -> String) -> (ImportRecords<Shooter>, ImportRecords<Picture>) {
        var shooters = ImportRecords(Shooter.self, key: \.$name)
        var pictures = ImportRecords(Picture.self, key: \.$code)
        let (cityField, shooter) = (shooters.field(\.$city), pictures.link(\.$shooter))
        for number in 0..<120 {
            let owner = shooters.append("S\(number)") { $0[cityField] = city(number) }
            pictures.append("p\(number)") { $0[shooter] = owner }
        }
        return (shooters, pictures)
    }

    /// The second save changes half of the shooters the first one stored (and the session
    /// remembers): each update is recorded with its key and the one column that changed; the
    /// shooters it leaves as they are record nothing.
    @Test(arguments: historyLocations)
    func updatesOfRememberedRowsAreRecordedAsStored(_ location: Location) throws {
        let store = try HistoryStore(location)
        let container = try store.open()
        try container.importing(mergePolicy: .objectTrump) { session in
            let first = Self.batch { _ in "Lisbon" }
            try session.save(first.0, first.1)
            let second = Self.batch { $0.isMultiple(of: 2) ? "Porto" : "Lisbon" }
            try session.save(second.0, second.1)
        }
        let history = try container.allHistory()
        #expect(history.count == 2)
        let updates = (history.last?.changes ?? []).map { "\($0.entity) \($0.kind) \($0.textKey) \($0.changedAttributes)" }
        #expect(updates.sorted() == (0..<120).filter { $0.isMultiple(of: 2) }.map { "Shooter updated S\($0) [\"city\"]" }.sorted())
    }
}
