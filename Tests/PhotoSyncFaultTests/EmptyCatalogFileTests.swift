import Foundation
import GRDB
import PhotoSyncTestSupport
import Testing

/// An empty file, or a SQLite database without a single table, is not a catalog (issue 21):
/// commands that need one exit 66 and leave the file byte for byte as it was; they used to write
/// a 77 KB schema into it and answer "No photos.".
@Suite("files that are not catalogs yet", .onTestThreads)
struct EmptyCatalogFileTests {
    static let commands = [["list"], ["status"], ["photographers"], ["show", "1"], ["delete", "1"], ["restore", "1"]]

    static func expectNotACatalog(_ sandbox: Sandbox, _ what: String) async throws {
        let before = try #require(sandbox.fileBytes())
        for command in Self.commands {
            let result = try await sandbox.run(command + ["--db", sandbox.db])
            #expect(result.status == 66, "\(what), \(command[0]): \(result)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains("no catalog at"), "\(what), \(command[0]): \(result)")
            #expect(sandbox.fileBytes() == before, "\(what), \(command[0]) changed the file")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.db + "-wal"), "\(what): a -wal file was left")
    }

    @Test func anEmptyFileIsNotACatalog() async throws {
        try await withSandbox { sandbox in
            #expect(FileManager.default.createFile(atPath: sandbox.db, contents: nil))
            try await Self.expectNotACatalog(sandbox, "an empty file")
        }
    }

    @Test func aDatabaseWithoutTablesIsNotACatalog() async throws {
        try await withSandbox { sandbox in
            let queue = try DatabaseQueue(path: sandbox.db)
            try await queue.write { try $0.execute(sql: "PRAGMA user_version = 7") }
            try queue.close()
            #expect((sandbox.fileBytes()?.count ?? 0) > 0)
            try await Self.expectNotACatalog(sandbox, "a database without tables")
        }
    }

    /// A fetch still makes a catalog in such a file.
    @Test func aFetchMakesACatalogThere() async throws {
        try await withServerAndSandbox { server, sandbox in
            server.serve([1: FeedJSON.page(1, of: 1, perPage: 1, total: 1, photos: [FeedJSON.photo("1")])])
            #expect(FileManager.default.createFile(atPath: sandbox.db, contents: nil))
            let fetch = try await sandbox("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(try await sandbox.ids() == ["1"])
        }
    }
}
