import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// The catalog's indexes serve the queries photosync runs (issue 11): a photographer's photos from
/// the foreign key's index, newest first from `uploaded`'s; no index keeps titles sorted (on every
/// import that cost more than the rest of the import).
@Suite("catalog indexes", .onTestThreads)
struct CatalogIndexTests {
    static func plan(_ path: String, _ sql: String) throws -> [String] {
        try rows(path, "EXPLAIN QUERY PLAN " + sql, column: "detail")
    }

    static func rows(_ path: String, _ sql: String, column: String = "name") throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: sql).map { $0[column] as String } }
    }

    static func photoIndexes(_ path: String) throws -> Set<String> {
        Set(try rows(path, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Photo'"))
    }

    @Test func theCatalogKeepsTheIndexesItsQueriesUse() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            #expect(try Self.photoIndexes(sandbox.db) == ["Photo_unique_unique", "Photo_whoTook_index", "Photo_uploaded_index"])
            let byPhotographer = try Self.plan(sandbox.db, #"SELECT id FROM Photo WHERE whoTook = (SELECT id FROM Photographer WHERE name = 'x') ORDER BY title"#)
            #expect(byPhotographer.contains { $0.contains("Photo_whoTook_index") }, "\(byPhotographer)")
            let newest = try Self.plan(sandbox.db, "SELECT id FROM Photo ORDER BY uploaded DESC LIMIT 20")
            #expect(newest.contains { $0.contains("Photo_uploaded_index") } && !newest.contains { $0.contains("TEMP B-TREE") }, "\(newest)")
            let list = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(list.status == 0, "\(list)")
        }
    }

    /// Rewrites the catalog as model version 5 left it: an index on `title` and one on (whoTook, title)
    /// in place of the foreign key's, in the file and in the schema record.
    static func makeVersion5(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var tables = try #require(schema["tables"] as? [[String: Any]])
            let photo = try #require(tables.firstIndex { $0["name"] as? String == "Photo" })
            let indexes = try #require(tables[photo]["indexes"] as? [[String]])
            tables[photo]["indexes"] = indexes.filter { $0 != ["whoTook"] } + [["title"], ["whoTook", "title"]]
            (schema["tables"], schema["version"]) = (tables, 5)
            let version5 = String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [version5])
            try db.execute(sql: #"DROP INDEX "Photo_whoTook_index""#)
            try db.execute(sql: #"CREATE INDEX "Photo_title_index" ON "Photo" ("title")"#)
            try db.execute(sql: #"CREATE INDEX "Photo_whoTook_title_index" ON "Photo" ("whoTook", "title")"#)
        }
    }

    @Test func aCatalogWithTheFormerTitleIndexesGetsTheNewOnesAtTheNextCommandAndListsTheSame() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let before = try await sandbox("list", "--limit", "3", "--format", "json")
            let photographer = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(before.status == 0 && photographer.status == 0, "\(before) \(photographer)")
            try Self.makeVersion5(sandbox.db)
            #expect(try Self.photoIndexes(sandbox.db) == ["Photo_unique_unique", "Photo_title_index", "Photo_whoTook_title_index", "Photo_uploaded_index"])
            let after = try await sandbox("list", "--limit", "3", "--format", "json")
            #expect(after.status == 0, "\(after)")
            let ids = { (result: Sandbox.Result) in try result.array().map { $0["id"] as? String } }
            #expect(try ids(after) == ids(before))
            #expect(try before.array().count == 3)
            #expect(try Self.photoIndexes(sandbox.db) == ["Photo_unique_unique", "Photo_whoTook_index", "Photo_uploaded_index"])
            let version = try Self.rows(sandbox.db, "SELECT CAST(json_extract(value, '$.version') AS TEXT) AS name FROM graphstore_metadata WHERE key = 'schema'")
            #expect(version == ["9"], "the current model (9 since issue 26)")
            let photographerAfter = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(try ids(photographerAfter) == ids(photographer))
            #expect(try !ids(photographer).isEmpty)
        }
    }
}
