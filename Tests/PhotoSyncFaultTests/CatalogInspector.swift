import Foundation
import GRDB
import Testing

/// Reads a catalog file directly with GRDB (after the binary is done with it) and checks what
/// must hold whatever happened to the process that wrote it.
struct CatalogInspector {
    let path: String

    struct Snapshot {
        var integrity: [String]
        var photoIDs: [String]
        var photosWithoutPhotographer: Int
        var photographersWithoutPhotos: [String]
        var duplicateUniques: Int
        var duplicateNames: Int
        var runOutcomes: [String]
    }

    /// Everything in one read transaction.
    func snapshot() throws -> Snapshot {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            Snapshot(
                integrity: try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                photoIDs: try String.fetchAll(db, sql: #"SELECT "unique" FROM "Photo""#),
                photosWithoutPhotographer: try Int.fetchOne(db, sql: #"""
                    SELECT count(*) FROM "Photo" p LEFT JOIN "Photographer" g ON g.id = p."whoTook" WHERE g.id IS NULL
                    """#) ?? -1,
                photographersWithoutPhotos: try String.fetchAll(db, sql: #"""
                    SELECT name FROM "Photographer" g WHERE NOT EXISTS (SELECT 1 FROM "Photo" p WHERE p."whoTook" = g.id)
                    """#),
                duplicateUniques: try Int.fetchOne(db, sql: #"SELECT count(*) - count(DISTINCT "unique") FROM "Photo""#) ?? -1,
                duplicateNames: try Int.fetchOne(db, sql: #"SELECT count(*) - count(DISTINCT name) FROM "Photographer""#) ?? -1,
                runOutcomes: try String.fetchAll(db, sql: #"SELECT outcome FROM "FetchRun" ORDER BY started"#))
        }
    }

    /// Whether the file holds no schema: missing, empty, or a database whose first transaction
    /// (the schema's) never committed. photosync reports such a file as no catalog (66).
    var holdsNoSchema: Bool {
        get throws {
            guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 else { return true }
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 }
        }
    }

    /// Integrity, relationship invariants, and page atomicity against the generator's page ids.
    /// Returns how many pages are present.
    @discardableResult
    func expectConsistent(pages: [[String]]? = nil, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let snap = try snapshot()
        #expect(snap.integrity == ["ok"], "\(context): integrity_check \(snap.integrity)", sourceLocation: sourceLocation)
        #expect(snap.photosWithoutPhotographer == 0, "\(context): photos without photographer", sourceLocation: sourceLocation)
        #expect(snap.photographersWithoutPhotos.isEmpty, "\(context): photographers without photos \(snap.photographersWithoutPhotos.prefix(5))", sourceLocation: sourceLocation)
        #expect(snap.duplicateUniques == 0, "\(context): duplicate photo ids", sourceLocation: sourceLocation)
        #expect(snap.duplicateNames == 0, "\(context): duplicate photographer names", sourceLocation: sourceLocation)
        guard let pages else { return 0 }
        let stored = Set(snap.photoIDs)
        var present = 0
        var covered = 0
        for (index, ids) in pages.enumerated() {
            let have = ids.filter(stored.contains).count
            #expect(have == 0 || have == ids.count, "\(context): page \(index + 1) is partial (\(have) of \(ids.count))", sourceLocation: sourceLocation)
            if have == ids.count { present += 1 }
            covered += have
        }
        #expect(covered == stored.count, "\(context): \(stored.count - covered) stored ids belong to no page", sourceLocation: sourceLocation)
        return present
    }
}

/// Page completeness of a set of ids seen by a reader (`list`), against the generator's pages.
func partialPages(_ ids: Set<String>, _ pages: [[String]]) -> [Int] {
    pages.enumerated().compactMap { index, page in
        let have = page.filter(ids.contains).count
        return have == 0 || have == page.count ? nil : index + 1
    }
}
