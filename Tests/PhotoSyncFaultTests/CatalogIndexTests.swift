import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// The catalog's indexes serve the queries photosync runs (issues 11, 28): a photographer's photos
/// newest first (the gallery) from (whoTook, uploaded), in place of the foreign key's own; newest
/// first from `uploaded`'s; by title (`list`'s default order) from `titleKey`'s (model 10).
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

    static let currentIndexes: Set = ["Photo_unique_unique", "Photo_whoTook_uploaded_index", "Photo_uploaded_index", "Photo_titleKey_index"]

    @Test func theCatalogKeepsTheIndexesItsQueriesUse() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            #expect(try Self.photoIndexes(sandbox.db) == Self.currentIndexes)
            try Self.expectIndexedPlans(sandbox.db)
            let list = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(list.status == 0, "\(list)")
        }
    }

    /// The plans of the queries the indexes are for: each an index walk, no full sort.
    static func expectIndexedPlans(_ path: String) throws {
        let photographer = "whoTook = (SELECT id FROM Photographer WHERE name = 'x')"
        let gallery = try plan(path, #"SELECT id FROM Photo WHERE \#(photographer) ORDER BY uploaded DESC, "unique" DESC LIMIT 24"#)
        #expect(gallery.contains { $0.contains("Photo_whoTook_uploaded_index") } && !gallery.contains { $0.contains("FOR ORDER BY") }, "\(gallery)")
        let byPhotographer = try plan(path, #"SELECT id FROM Photo WHERE \#(photographer) ORDER BY titleKey"#)
        #expect(byPhotographer.contains { $0.contains("Photo_whoTook_uploaded_index") }, "\(byPhotographer)")
        let newest = try plan(path, "SELECT id FROM Photo ORDER BY uploaded DESC LIMIT 20")
        #expect(newest.contains { $0.contains("Photo_uploaded_index") } && !newest.contains { $0.contains("TEMP B-TREE") }, "\(newest)")
        let byTitle = try plan(path, #"SELECT id FROM Photo ORDER BY titleKey, title, "unique" LIMIT 100"#)
        #expect(byTitle.contains { $0.contains("Photo_titleKey_index") } && !byTitle.contains { $0.contains("USE TEMP B-TREE FOR ORDER BY") }, "\(byTitle)")
    }

    /// Rewrites the catalog as model `version` left it, with `indexes` as Photo's plain indexes, in
    /// the file and in the schema record.
    static func rewrite(_ path: String, asVersion version: Int, photoIndexes indexes: [[String]]) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var tables = try #require(schema["tables"] as? [[String: Any]])
            let photo = try #require(tables.firstIndex { $0["name"] as? String == "Photo" })
            tables[photo]["indexes"] = indexes
            (schema["tables"], schema["version"]) = (tables, version)
            let older = String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [older])
            let plain = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Photo' AND name LIKE '%\\_index' ESCAPE '\\'")
            for name in plain { try db.execute(sql: #"DROP INDEX "\#(name)""#) }
            for columns in indexes {
                try db.execute(sql: #"CREATE INDEX "Photo_\#(columns.joined(separator: "_"))_index" ON "Photo" (\#(columns.map { "\"\($0)\"" }.joined(separator: ", ")))"#)
            }
        }
    }

    static func storedVersion(_ path: String) throws -> [String] {
        try rows(path, "SELECT CAST(json_extract(value, '$.version') AS TEXT) AS name FROM graphstore_metadata WHERE key = 'schema'")
    }

    /// Model 8's: the foreign key's own index and `uploaded`'s.
    @Test func aModel8CatalogGetsTheGalleryAndTitleIndexesAtTheNextCommandNotFromServe() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let before = try await sandbox("list", "--format", "json")
            try Self.rewrite(sandbox.db, asVersion: 8, photoIndexes: [["uploaded"], ["whoTook"]])
            #expect(try Self.photoIndexes(sandbox.db) == ["Photo_unique_unique", "Photo_whoTook_index", "Photo_uploaded_index"])
            let refused = try await sandbox("serve", "--port", "0")
            #expect(refused.status != 0 && refused.stderr.contains("'photosync status' updates it"), "\(refused)")
            #expect(try Self.storedVersion(sandbox.db) == ["8"], "serve writes nothing")
            let status = try await sandbox("status")
            #expect(status.status == 0, "\(status)")
            #expect(try Self.photoIndexes(sandbox.db) == Self.currentIndexes)
            #expect(try Self.storedVersion(sandbox.db) == [CatalogFilesMigrationTests.currentVersion])
            try Self.expectIndexedPlans(sandbox.db)
            #expect(try await sandbox("list", "--format", "json").stdout == before.stdout)
        }
    }

    @Test func aCatalogWithTheFormerTitleIndexesGetsTheNewOnesAtTheNextCommandAndListsTheSame() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let before = try await sandbox("list", "--limit", "3", "--format", "json")
            let photographer = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(before.status == 0 && photographer.status == 0, "\(before) \(photographer)")
            try Self.rewrite(sandbox.db, asVersion: 5, photoIndexes: [["uploaded"], ["title"], ["whoTook", "title"]])
            #expect(try Self.photoIndexes(sandbox.db) == ["Photo_unique_unique", "Photo_title_index", "Photo_whoTook_title_index", "Photo_uploaded_index"])
            let after = try await sandbox("list", "--limit", "3", "--format", "json")
            #expect(after.status == 0, "\(after)")
            let ids = { (result: Sandbox.Result) in try result.array().map { $0["id"] as? String } }
            #expect(try ids(after) == ids(before))
            #expect(try before.array().count == 3)
            #expect(try Self.photoIndexes(sandbox.db) == Self.currentIndexes)
            #expect(try Self.storedVersion(sandbox.db) == [CatalogFilesMigrationTests.currentVersion], "the current model")
            let photographerAfter = try await sandbox("list", "--photographer", "Ana Lima", "--format", "json")
            #expect(try ids(photographerAfter) == ids(photographer))
            #expect(try !ids(photographer).isEmpty)
        }
    }
}
