import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// Model 8 (issue 25) added where a cut walk stopped (`SourceBackfill`), a search's completed
/// windows (`SearchWindow`), `FetchRun.backfillPages` and `.windowsOverCap`, the license names
/// (`License`), the tags (`Tag` and its join table) and the photos' metadata columns: a catalog of model 7 gets them at its next
/// command, in place, on both stores, its photos and runs read as before.
@Suite("catalog model 8 migration", .onTestThreads)
struct CatalogModel8MigrationTests {
    /// What models 8 and 9 added: whole tables, and columns of older tables (9: the photos' re-check
    /// state, `gone`, `goneReason`, `checked`, issue 26). A model 7 catalog migrates to the current one.
    /// (The join table before the table it refers to: they are dropped in this order.)
    static let addedTables = ["SourceBackfill", "SearchWindow", "License", "Photo_tags", "Tag"]
    static let addedColumns = ["FetchRun": ["backfillPages", "windowsOverCap"],
                               "Photo": ["license", "taken", "latitude", "longitude", "lastUpdate", "views", "media", "sizes", "tagList",
                                         "gone", "goneReason", "checked"]]

    /// The stored schema record as model 7 wrote it: without model 8's tables and columns.
    static func version7(schema text: String) throws -> String {
        var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var tables = try #require(schema["tables"] as? [[String: Any]])
        tables.removeAll { addedTables.contains($0["name"] as? String ?? "") }
        for (table, added) in addedColumns {
            let index = try #require(tables.firstIndex { $0["name"] as? String == table })
            let columns = try #require(tables[index]["columns"] as? [[String: Any]])
            tables[index]["columns"] = columns.filter { !added.contains($0["name"] as? String ?? "") }
            let indexes = tables[index]["indexes"] as? [[String]] ?? []
            tables[index]["indexes"] = indexes.filter { $0.allSatisfy { !added.contains($0) } }
        }
        (schema["tables"], schema["version"]) = (tables, 7)
        return String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
    }

    /// SQL that drops model 8's tables and columns, and model 10's index on one (the same on both stores).
    static var dropStatements: [String] {
        [#"DROP INDEX IF EXISTS "Photo_titleKey_index""#] + addedTables.map { #"DROP TABLE "\#($0)""# }
            + addedColumns.flatMap { table, columns in columns.map { #"ALTER TABLE "\#(table)" DROP COLUMN "\#($0)""# } }
    }

    /// Rewrites the catalog as model 7 left it, in the file or database and in the schema record.
    static func makeVersion7(_ sandbox: Sandbox) throws {
        if let catalog = sandbox.postgres {
            let schema = try version7(schema: try catalog.psql("SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            try catalog.psql((dropStatements + ["UPDATE graphstore_metadata SET value = $v7$\(schema)$v7$ WHERE key = 'schema'"])
                .joined(separator: ";\n"))
            return
        }
        let queue = try DatabaseQueue(path: sandbox.db)
        defer { try? queue.close() }
        try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [try version7(schema: text)])
            for statement in dropStatements { try db.execute(sql: statement) }
        }
    }

    static func tables(_ sandbox: Sandbox) throws -> Set<String> {
        if let catalog = sandbox.postgres {
            return Set(try catalog.psql("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()").split(separator: "\n").map(String.init))
        }
        return Set(try CatalogIndexTests.rows(sandbox.db, "SELECT name FROM sqlite_master WHERE type = 'table'"))
    }

    @Test(arguments: [false, true]) func aModel7CatalogGetsTheCatchUpStateAtItsNextCommand(postgres: Bool) async throws {
        try await withSandbox(postgres: postgres) { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let before = try await sandbox("list", "--format", "json")
            #expect(before.status == 0, "\(before)")
            try Self.makeVersion7(sandbox)
            #expect(try CatalogFilesMigrationTests.storedVersion(sandbox) == "7")
            #expect(try Self.tables(sandbox).isDisjoint(with: Self.addedTables))

            let status = try await sandbox("status", "--format", "json")
            #expect(status.status == 0, "\(status)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            let runs = try #require(object["runs"] as? [[String: Any]])
            #expect(runs.count == 1 && runs[0]["backfill_pages"] as? Int == 0 && runs[0]["windows_over_cap"] as? Int == 0
                && runs[0]["pages"] as? Int == 4, "\(runs)")
            let sources = try #require(object["sources"] as? [[String: Any]])
            #expect(sources.count == 1 && sources[0]["complete"] as? Bool == true, "\(sources)")
            #expect(try Self.tables(sandbox).isSuperset(of: Self.addedTables))
            #expect(try CatalogFilesMigrationTests.storedVersion(sandbox) == CatalogFilesMigrationTests.currentVersion)
            let after = try await sandbox("list", "--format", "json")
            #expect(after.stdout == before.stdout)
        }
    }
}
