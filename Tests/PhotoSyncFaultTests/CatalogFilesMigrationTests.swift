import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// Model 7 added `PhotoFile` (issue 27). A catalog of model 6 gains the table, empty, at its next
/// command, keeps every photo, and can record downloads at once, on both stores.
@Suite("catalog files migration", .onTestThreads)
struct CatalogFilesMigrationTests {
    /// Rewrites a SQLite catalog as model 6 left it: no `PhotoFile` table, in the file and in the
    /// schema record.
    static func makeVersion6(sqlite path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let tables = try #require(schema["tables"] as? [[String: Any]])
            (schema["tables"], schema["version"]) = (tables.filter { $0["name"] as? String != "PhotoFile" }, 6)
            let version6 = String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [version6])
            try db.execute(sql: #"DROP TABLE "PhotoFile""#)
        }
    }

    /// The same for a PostgreSQL catalog, with psql.
    static func makeVersion6(postgres catalog: PostgresTestCatalog) throws {
        _ = try catalog.psql("""
            DROP TABLE "PhotoFile";
            UPDATE graphstore_metadata SET value = jsonb_set(jsonb_set(value::jsonb, '{version}', '6'), '{tables}',
              (SELECT jsonb_agg(t) FROM jsonb_array_elements(value::jsonb -> 'tables') AS t WHERE t ->> 'name' <> 'PhotoFile'))::text
            WHERE key = 'schema';
            """)
    }

    /// The catalog model photosync writes today (`CatalogModel`): what every migration ends at.
    static let currentVersion = "10"

    static func storedVersion(_ sandbox: Sandbox) throws -> String {
        if let postgres = sandbox.postgres {
            return try postgres.psql("SELECT value::jsonb ->> 'version' FROM graphstore_metadata WHERE key = 'schema'")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let queue = try DatabaseQueue(path: sandbox.db)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchOne(db, sql: "SELECT CAST(json_extract(value, '$.version') AS TEXT) FROM graphstore_metadata WHERE key = 'schema'") ?? ""
        }
    }

    @Test(arguments: [false, true]) func aModel6CatalogGainsFilesAndDownloads(postgres: Bool) async throws {
        try await withSandbox(postgres: postgres, environment: BinarySandbox.inProcessServerEnvironment) { sandbox in
            try await TestHTTPServer.withRunning { server in
                let image: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 2_000)
                server.route("/img/1.jpg", TestResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: image))
                let page = #"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":"1","owner":"1@N01","ownername":"Ana","title":"t","dateupload":"1700000000","url_l":"\#(server.url("/img/1.jpg"))"}]},"stat":"ok"}"#
                server.route("/rest", .text(page, headers: ["Content-Type": "application/json"]))
                let fetch = try await sandbox("fetch", "--url", server.url("/rest"), "--api-key", "k", "--quiet")
                try #require(fetch.status == 0, "\(fetch)")
                if let catalog = sandbox.postgres { try Self.makeVersion6(postgres: catalog) } else { try Self.makeVersion6(sqlite: sandbox.db) }
                #expect(try Self.storedVersion(sandbox) == "6")

                let files = sandbox.directory + "/files"
                let download = try await sandbox.run(["download", "--files", files, "--format", "json", "--db", sandbox.db])
                #expect(download.status == 0, "\(download)")
                #expect(try download.object()["downloaded"] as? Int == 1)
                #expect(FileManager.default.contents(atPath: files + "/1_l.jpg").map(Array.init) == image)
                #expect(try Self.storedVersion(sandbox) == Self.currentVersion, "the current model")
                #expect(try await sandbox.ids() == ["1"])
            }
        }
    }
}
