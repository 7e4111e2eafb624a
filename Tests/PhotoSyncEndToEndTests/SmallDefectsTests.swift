import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 11: the small ones, each through the binary.
@Suite("small defects of issue 22", .onTestThreads)
struct SmallDefectsTests {
    static let items = [FeedItem("1", by: "Ana Lima", title: "Dunes"), FeedItem("2", by: "Bo Chen", title: "Pier")]

    @Test func aNegativeLimitIsNamedAsSuch() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 2))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            for args in [["list", "--limit", "-1"], ["list", "-n", "-1"], ["photographers", "--limit", "-1"]] {
                let result = try await photosync.run(args + ["--db", photosync.db])
                #expect(result.status == 64 && result.stderr.contains("--limit must be at least 1"), "\(args): \(result)")
            }
            let offset = try await photosync("list", "--offset", "-1")
            #expect(offset.status == 64 && offset.stderr.contains("--offset must be at least 0"), "\(offset)")
        }
    }

    @Test func shortOptionsForTheCommonFlags() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 2))
            let quiet = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "-q")
            #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet)")
            let list = try await photosync("list", "-p", "Ana Lima", "-n", "1", "-f", "json")
            #expect(try jsonArray(list).map { $0["id"] as? String } == ["1"], "\(list)")
            let verbose = try await photosync("-v", "status", "-f", "json")
            #expect(verbose.status == 0 && verbose.stderr.contains("catalog "), "debug lines on stderr: \(verbose)")
            let names = try await photosync("photographers", "-n", "1", "-f", "csv")
            #expect(names.stdout == "name,photos\r\nAna Lima,1\r\n", "\(names)")
            let deleted = try await photosync("delete", "-p", "Bo Chen")
            #expect(deleted.status == 0, "\(deleted)")
            #expect(try await photosync("restore", "-p", "Bo Chen").status == 0)
        }
    }

    @Test func dryRunSummariesSayWouldAndLogLinesSayTotals() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 1))
            let log = photosync.directory + "/fetch.log"
            let dry = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456", "--dry-run", "--log-file", log)
            #expect(dry.stdout.contains("would insert photos:") && dry.stdout.contains("would insert photographers:"), "\(dry)")
            #expect(!dry.stdout.contains("photos inserted"), "\(dry)")
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.contains("INFO page 2 saved; totals so far: received 2, inserted 2"), "\(text)")
        }
    }

    @Test func configSaysWhereItLookedAndTheKeyHintPutsTheSafeWaysFirst() async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let config = try await photosync.run(["config"])
        #expect(config.stdout.contains("config:") && config.stdout.contains("(none at \(photosync.directory)/config/photosync/config.yaml)"), "\(config)")
        let noKey = try await photosync.run(["fetch", "--url", "https://api.example.test/rest", "--db", photosync.db])
        #expect(noKey.status == 78, "\(noKey)")
        let hint = noKey.stderr
        let environment = try #require(hint.range(of: "PHOTOSYNC_API_KEY"), "\(noKey)")
        let flag = try #require(hint.range(of: "--api-key"), "\(noKey)")
        #expect(environment.lowerBound < flag.lowerBound && hint.contains("ps"), "\(noKey)")
        let help = try await photosync.run(["fetch", "--help"])
        #expect(!help.stdout.contains("$PWD") && !help.stdout.contains("Fixtures/"), "an installed user has no Fixtures: \(help.stdout)")
    }

    @Test func migrateIntoANonEmptyCatalogSpeaksOfPhotos() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 2))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            let other = photosync.directory + "/other.sqlite"
            #expect(try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k123456", "--db", other]).status == 0)
            let migrate = try await photosync("migrate", "--to", other)
            #expect(migrate.status == 74 && migrate.stderrLines.count == 1, "\(migrate)")
            #expect(migrate.stderr.contains("is not empty: it holds 2 photos, 2 photographers"), "\(migrate)")
            #expect(!migrate.stderr.contains("Photo holds rows"), "\(migrate)")
        }
    }
}
