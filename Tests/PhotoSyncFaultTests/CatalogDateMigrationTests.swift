import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// A catalog written before GraphStore stored dates as seconds since 2001 (issue 12): the first
/// command converts it and every date reads as before.
@Suite("catalog date migration", .onTestThreads)
struct CatalogDateMigrationTests {
    /// Rewrites the catalog as the former encoding left it: every date column in seconds since
    /// 1970 (the addition that encoding made), and a schema record without `format` or date marks.
    static func makeLegacy(_ path: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.write { db in
            let text = try #require(try String.fetchOne(db, sql: "SELECT value FROM graphstore_metadata WHERE key = 'schema'"))
            var schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            schema["format"] = nil
            var converted = 0
            var tables = try #require(schema["tables"] as? [[String: Any]])
            for (tableIndex, table) in tables.enumerated() {
                var columns = try #require(table["columns"] as? [[String: Any]])
                for (columnIndex, column) in columns.enumerated() where column["isDate"] as? Bool == true {
                    let (tableName, columnName) = (try #require(table["name"] as? String), try #require(column["name"] as? String))
                    try db.execute(sql: "UPDATE \"\(tableName)\" SET \"\(columnName)\" = \"\(columnName)\" + 978307200.0")
                    columns[columnIndex]["isDate"] = nil
                    converted += 1
                }
                tables[tableIndex]["columns"] = columns
            }
            schema["tables"] = tables
            let legacy = String(decoding: try JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE graphstore_metadata SET value = ? WHERE key = 'schema'", arguments: [legacy])
            return converted
        }
    }

    static func storedFormat(_ path: String) throws -> Int? {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT json_extract(value, '$.format') FROM graphstore_metadata WHERE key = 'schema'")
        }
    }

    @Test func aCatalogOfTheFormerDateEncodingListsTheSameDatesAfterConversion() async throws {
        try await withSandbox { sandbox in
            try await CatalogFileTests.realCatalog(sandbox)
            let before = try await sandbox("list", "--format", "json")
            #expect(before.status == 0, "\(before)")
            // Photo.uploaded, FetchRun.started and .finished, and the exclusion dates.
            #expect(try Self.makeLegacy(sandbox.db) >= 3)
            let after = try await sandbox("list", "--format", "json")
            #expect(after.status == 0, "\(after)")
            let dates = { (result: Sandbox.Result) in try result.array().map { $0["uploaded"] as? String } }
            #expect(try dates(after) == dates(before))
            #expect(try dates(after).allSatisfy { $0?.hasPrefix("20") == true })
            let status = try await sandbox("status", "--format", "json")
            #expect(status.status == 0, "\(status)")
            // Converted once: the schema record says so.
            #expect(try Self.storedFormat(sandbox.db) == 2)
        }
    }
}
