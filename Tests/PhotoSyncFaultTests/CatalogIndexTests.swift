import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// The catalog's indexes serve the queries photosync runs (issue 11): a photographer's photos by
/// title from one composite index, newest first and by title from their own.
@Suite("catalog indexes")
struct CatalogIndexTests {
    static func plan(_ path: String, _ sql: String) throws -> [String] {
        try rows(path, "EXPLAIN QUERY PLAN " + sql, column: "detail")
    }

    static func rows(_ path: String, _ sql: String, column: String = "name") throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql).map { $0[column] as String } }
    }

    @Test func theCatalogKeepsTheIndexesItsQueriesUse() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let indexes = Set(try Self.rows(sandbox.db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Photo'"))
            #expect(indexes.isSuperset(of: ["Photo_whoTook_title_index", "Photo_title_index", "Photo_uploaded_index"]), "\(indexes)")
            #expect(!indexes.contains("Photo_whoTook_index"), "the composite index replaces the foreign key's own")

            let byPhotographer = try Self.plan(sandbox.db, #"SELECT id FROM Photo WHERE whoTook = (SELECT id FROM Photographer WHERE name = 'x') ORDER BY title"#)
            #expect(byPhotographer.contains { $0.contains("Photo_whoTook_title_index") } && !byPhotographer.contains { $0.contains("TEMP B-TREE") }, "\(byPhotographer)")
            let newest = try Self.plan(sandbox.db, "SELECT id FROM Photo ORDER BY uploaded DESC LIMIT 20")
            #expect(newest.contains { $0.contains("Photo_uploaded_index") } && !newest.contains { $0.contains("TEMP B-TREE") }, "\(newest)")
            let list = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(list.status == 0, "\(list)")
        }
    }
}
