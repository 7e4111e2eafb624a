import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// Model 7 (issue 25) added where a cut walk stopped (`SourceBackfill`), a search's completed
/// windows (`SearchWindow`), `FetchRun.backfillPages` and `.windowsOverCap`: a catalog of model 6
/// gets them at its next command, in place, its runs read as before.
@Suite("catalog model 7 migration")
struct CatalogModel7MigrationTests {
    /// Rewrites the catalog as model 6 left it: without the new tables and columns, in the file and
    /// in the schema record.
    static func makeVersion6(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var tables = try #require(schema["tables"] as? [[String: Any]])
            tables.removeAll { ["SourceBackfill", "SearchWindow"].contains($0["name"] as? String) }
            let run = try #require(tables.firstIndex { $0["name"] as? String == "FetchRun" })
            let columns = try #require(tables[run]["columns"] as? [[String: Any]])
            tables[run]["columns"] = columns.filter { !["backfillPages", "windowsOverCap"].contains($0["name"] as? String) }
            (schema["tables"], schema["version"]) = (tables, 6)
            let version6 = String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [version6])
            try db.execute(sql: #"DROP TABLE "SourceBackfill""#)
            try db.execute(sql: #"DROP TABLE "SearchWindow""#)
            try db.execute(sql: #"ALTER TABLE "FetchRun" DROP COLUMN "backfillPages""#)
            try db.execute(sql: #"ALTER TABLE "FetchRun" DROP COLUMN "windowsOverCap""#)
        }
    }

    static func tables(_ path: String) throws -> Set<String> {
        Set(try CatalogIndexTests.rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'"))
    }

    @Test func aModel6CatalogGetsTheCatchUpStateAtItsNextCommand() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let before = try await sandbox("list", "--format", "json")
            #expect(before.status == 0, "\(before)")
            try Self.makeVersion6(sandbox.db)
            #expect(try Self.tables(sandbox.db).isDisjoint(with: ["SourceBackfill", "SearchWindow"]))

            let status = try await sandbox("status", "--format", "json")
            #expect(status.status == 0, "\(status)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            let runs = try #require(object["runs"] as? [[String: Any]])
            #expect(runs.count == 1 && runs[0]["backfill_pages"] as? Int == 0 && runs[0]["windows_over_cap"] as? Int == 0
                && runs[0]["pages"] as? Int == 4, "\(runs)")
            let sources = try #require(object["sources"] as? [[String: Any]])
            #expect(sources.count == 1 && sources[0]["complete"] as? Bool == true, "\(sources)")
            #expect(try Self.tables(sandbox.db).isSuperset(of: ["SourceBackfill", "SearchWindow"]))
            let version = try CatalogIndexTests.rows(sandbox.db, "SELECT CAST(json_extract(value, '$.version') AS TEXT) AS name FROM graphstore_metadata WHERE key = 'schema'")
            #expect(version == ["7"])
            let after = try await sandbox("list", "--format", "json")
            #expect(after.stdout == before.stdout)
        }
    }
}
