import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// Model 8 added `Photo.titleKey` (issue 22, defect 7). A catalog of model 7 gains the column at
/// its next command, every photo's key filled in place, so `list` sorts it as a dictionary does
/// at once, on both stores.
@Suite("title key migration", .onTestThreads)
struct TitleKeyMigrationTests {
    static let titles = ["Zebra", "Últimos raios", "_MG_0270.jpg", "CHR_9340.jpg", "café", "Cafe", "Ärger", "東京タワー"]
    static let expected = ["_MG_0270.jpg", "Ärger", "Cafe", "café", "CHR_9340.jpg", "Últimos raios", "Zebra", "東京タワー"]

    /// Rewrites a SQLite catalog as model 7 left it: no `titleKey` column (nor its index, model 10's),
    /// in the file and in the schema record.
    static func makeVersion7(sqlite path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let tables = try #require(schema["tables"] as? [[String: Any]]).map { table in
                guard table["name"] as? String == "Photo", let columns = table["columns"] as? [[String: Any]] else { return table }
                var photo = table
                photo["columns"] = columns.filter { $0["name"] as? String != "titleKey" }
                return photo
            }
            (schema["tables"], schema["version"]) = (tables, 7)
            let version7 = String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [version7])
            try db.execute(sql: #"DROP INDEX IF EXISTS "Photo_titleKey_index""#)
            try db.execute(sql: #"ALTER TABLE "Photo" DROP COLUMN "titleKey""#)
        }
    }

    /// The same for a PostgreSQL catalog, with psql.
    static func makeVersion7(postgres catalog: PostgresTestCatalog) throws {
        _ = try catalog.psql("""
            ALTER TABLE "Photo" DROP COLUMN "titleKey";
            UPDATE graphstore_metadata SET value = jsonb_set(jsonb_set(value::jsonb, '{version}', '7'), '{tables}',
              (SELECT jsonb_agg(CASE WHEN t ->> 'name' = 'Photo' THEN jsonb_set(t, '{columns}',
                 (SELECT jsonb_agg(c ORDER BY p) FROM jsonb_array_elements(t -> 'columns') WITH ORDINALITY AS cs(c, p) WHERE c ->> 'name' <> 'titleKey'))
               ELSE t END ORDER BY o) FROM jsonb_array_elements(value::jsonb -> 'tables') WITH ORDINALITY AS ts(t, o)))::text
            WHERE key = 'schema';
            """)
    }

    /// Photos without a key, read from the store itself.
    static func photosWithoutKey(_ sandbox: Sandbox) throws -> String {
        let sql = #"SELECT count(*) FROM "Photo" WHERE "titleKey" IS NULL"#
        if let postgres = sandbox.postgres { return try postgres.psql(sql).trimmingCharacters(in: .whitespacesAndNewlines) }
        let queue = try DatabaseQueue(path: sandbox.db)
        defer { try? queue.close() }
        return try queue.read { db in try String(Int.fetchOne(db, sql: sql) ?? -1) }
    }

    @Test(arguments: [false, true]) func aModel7CatalogGetsItsKeysAndSortsAtOnce(postgres: Bool) async throws {
        try await withSandbox(postgres: postgres, environment: BinarySandbox.inProcessServerEnvironment) { sandbox in
            try await TestHTTPServer.withRunning { server in
                let items = Self.titles.enumerated().map { index, title in
                    #"{"id":"\#(index + 1)","owner":"1@N01","ownername":"Ana","title":"\#(title)","dateupload":"1700000000","url_l":"https://live.example.test/\#(index + 1)_l.jpg"}"#
                }
                let page = #"{"photos":{"page":1,"pages":1,"perpage":10,"total":\#(items.count),"photo":[\#(items.joined(separator: ","))]},"stat":"ok"}"#
                server.route("/rest", .text(page, headers: ["Content-Type": "application/json"]))
                let fetch = try await sandbox("fetch", "--url", server.url("/rest"), "--api-key", "k", "--quiet")
                try #require(fetch.status == 0, "\(fetch)")
                try #require(try await sandbox.ids().count == Self.titles.count, "\(fetch)")
                if let catalog = sandbox.postgres { try Self.makeVersion7(postgres: catalog) } else { try Self.makeVersion7(sqlite: sandbox.db) }
                #expect(try CatalogFilesMigrationTests.storedVersion(sandbox) == "7")

                let list = try await sandbox("list", "--format", "json")
                #expect(list.status == 0, "\(list)")
                #expect(try list.array().map { $0["title"] as? String ?? "?" } == Self.expected, "\(list.stdout)")
                #expect(try CatalogFilesMigrationTests.storedVersion(sandbox) == CatalogFilesMigrationTests.currentVersion)
                #expect(try Self.photosWithoutKey(sandbox) == "0")
            }
        }
    }
}
