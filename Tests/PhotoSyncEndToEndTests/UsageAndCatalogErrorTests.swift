import Foundation
import PhotoSyncTestSupport
import Testing

@Suite("usage and catalog errors", .onTestThreads)
struct UsageAndCatalogErrorTests {
    @Test(arguments: [
        ["fetch", "--api-key", "k", "--per-page", "0"],
        ["fetch", "--api-key", "k", "--per-page", "501"],
        ["fetch", "--api-key", "k", "--pages", "0"],
        ["fetch", "--api-key", "k", "--retries", "11"],
        ["fetch", "--api-key", "k", "--url", "ftp://example.test/"],
        ["fetch", "--api-key", "k", "--merge-policy", "newest"],
        ["list", "--limit", "0"],
        ["list", "--verbose", "--quiet"],
        ["delete"],
        ["delete", "1", "--photographer", "Ana Lima"],
        ["frobnicate"],
    ])
    func usageErrorsExit64(args: [String]) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        // No server: a usage error must be reported before any request would be made.
        let result = try await photosync.run(args + ["--db", photosync.db])
        #expect(result.status == 64, "\(args): \(result)")
        #expect(!result.stderr.isEmpty)
    }

    @Test(arguments: ["list", "photographers", "status"])
    func catalogPathIsADirectory(command: String) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let directory = photosync.directory + "/not-a-file.sqlite"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let result = try await photosync.run([command, "--db", directory])
        #expect(result.status == 74, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
    }

    @Test(arguments: ["list", "photographers", "status"])
    func catalogFileWithGarbage(command: String) async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(FileManager.default.createFile(atPath: photosync.db, contents: Data(garbage)))
        let result = try await photosync.run([command, "--db", photosync.db])
        #expect(result.status == 74, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        // The unreadable file is left as it was.
        #expect(try Data(contentsOf: URL(fileURLWithPath: photosync.db)) == Data(garbage))
    }

    @Test func fetchIntoGarbageCatalogExits74WithoutRequests() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed([1: Feed.page(1, of: 1, perPage: 1, total: 1, [FeedItem("1", by: "Ana Lima", title: "A")])])
            #expect(FileManager.default.createFile(atPath: photosync.db, contents: Data(repeating: 0xAB, count: 4096)))
            let result = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(result.status == 74, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
        }
    }

    @Test func missingAPIKeyIsAConfigurationError() async throws {
        try await withSandbox { photosync, server in
            let result = try await photosync("fetch", "--url", server.feedURL)
            #expect(result.status == 78, "\(result)")
            #expect(server.requests.isEmpty)
        }
    }
}
