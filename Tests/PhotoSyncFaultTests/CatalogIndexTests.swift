import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// The catalog's indexes serve the queries photosync runs (issue 11): a photographer's photos by
/// title from one composite index, newest first from its own; no index keeps the whole catalog
/// sorted by title (it doubled a first import's cost).
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
            #expect(indexes.isSuperset(of: ["Photo_whoTook_title_index", "Photo_uploaded_index"]), "\(indexes)")
            #expect(!indexes.contains("Photo_whoTook_index"), "the composite index replaces the foreign key's own")
            #expect(!indexes.contains("Photo_title_index"), "\(indexes)")

            let byPhotographer = try Self.plan(sandbox.db, #"SELECT id FROM Photo WHERE whoTook = (SELECT id FROM Photographer WHERE name = 'x') ORDER BY title"#)
            #expect(byPhotographer.contains { $0.contains("Photo_whoTook_title_index") } && !byPhotographer.contains { $0.contains("TEMP B-TREE") }, "\(byPhotographer)")
            let newest = try Self.plan(sandbox.db, "SELECT id FROM Photo ORDER BY uploaded DESC LIMIT 20")
            #expect(newest.contains { $0.contains("Photo_uploaded_index") } && !newest.contains { $0.contains("TEMP B-TREE") }, "\(newest)")
            let list = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(list.status == 0, "\(list)")
        }
    }

    /// Rewrites the catalog as model version 5 left it: an index on `title` alone, in the file and
    /// in the schema record.
    static func makeVersion5(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var tables = try #require(schema["tables"] as? [[String: Any]])
            let photo = try #require(tables.firstIndex { $0["name"] as? String == "Photo" })
            tables[photo]["indexes"] = (try #require(tables[photo]["indexes"] as? [[String]])) + [["title"]]
            (schema["tables"], schema["version"]) = (tables, 5)
            let version5 = String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [version5])
            try db.execute(sql: #"CREATE INDEX "Photo_title_index" ON "Photo" ("title")"#)
        }
    }

    @Test func aCatalogWithTheFormerTitleIndexLosesItAtTheNextCommandAndListsTheSame() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let before = try await sandbox("list", "--limit", "3", "--format", "json")
            #expect(before.status == 0, "\(before)")
            try Self.makeVersion5(sandbox.db)
            #expect(try Self.rows(sandbox.db, "SELECT name FROM sqlite_master WHERE name = 'Photo_title_index'") == ["Photo_title_index"])
            let after = try await sandbox("list", "--limit", "3", "--format", "json")
            #expect(after.status == 0, "\(after)")
            #expect(try after.array().map { $0["id"] as? String } == before.array().map { $0["id"] as? String })
            #expect(try before.array().count == 3)
            #expect(try Self.rows(sandbox.db, "SELECT name FROM sqlite_master WHERE name = 'Photo_title_index'").isEmpty)
            let version = try Self.rows(sandbox.db, "SELECT CAST(json_extract(value, '$.version') AS TEXT) AS name FROM graphstore_metadata WHERE key = 'schema'")
            #expect(version == ["6"])
        }
    }
}
