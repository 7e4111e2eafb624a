import Foundation
import PhotoSyncTestSupport
import Testing

@Suite("fetch behaviour: page limits, dry run, skipped items, ownership changes, settings sources", .onTestThreads)
struct FetchBehaviourTests {
    static let six: [FeedItem] = (1...6).map { FeedItem("\($0)", by: $0 <= 3 ? "Ana Lima" : "Bruno Costa", title: "P\($0)") }

    @Test func pagesFlagLimitsTheRequests() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.six, perPage: 2))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", "--pages", "2",
                                             "--format", "json")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 2])
            #expect(try jsonObject(fetch)["pages"] as? Int == 2)
            #expect(try jsonArray(try await photosync("list", "--format", "json")).count == 4)
        }
    }

    @Test func maxPagesFromTheEnvironment() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.six, perPage: 2))
            let fetch = try await photosync("fetch", "--format", "json",
                                             environment: ["PHOTOSYNC_URL": server.feedURL, "PHOTOSYNC_API_KEY": "env-key",
                                                           "PHOTOSYNC_PER_PAGE": "2", "PHOTOSYNC_MAX_PAGES": "1"])
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1])
            #expect(server.requests(to: Feed.path).first?.query["api_key"] == "env-key")
            #expect(server.requests(to: Feed.path).first?.query["per_page"] == "2")
        }
    }

    @Test func flagsOverrideTheConfigFile() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.six, perPage: 3))
            let configDir = photosync.directory + "/config/photosync"
            try FileManager.default.createDirectory(atPath: configDir, withIntermediateDirectories: true)
            try "endpoint: \(server.feedURL)\napi_key: config-key\nper_page: 3\n"
                .write(toFile: configDir + "/config.yaml", atomically: true, encoding: .utf8)
            let fetch = try await photosync("fetch", "--api-key", "flag-key", "--format", "json")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 2])
            #expect(Set(server.requests(to: Feed.path).map { $0.query["api_key"] }) == ["flag-key"])
            #expect(Set(server.requests(to: Feed.path).map { $0.query["per_page"] }) == ["3"])
        }
    }

    @Test func dryRunSavesNothing() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Array(Self.six.prefix(2)), perPage: 2))
            let dry = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--dry-run")
            #expect(dry.status == 0, "\(dry)")
            #expect(dry.stdout.contains("dry run"), "\(dry)")
            let list = try await photosync("list", "--format", "json")
            #expect(list.status == 66 && list.stderr == "photosync: no catalog at \(photosync.db) (run photosync fetch first)\n", "\(list)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: photosync.directory).filter { $0.hasPrefix("catalog") }.isEmpty)
            #expect(try FileManager.default.contentsOfDirectory(atPath: photosync.directory + "/data").isEmpty)
        }
    }

    @Test func itemsWithBadIDsAreSkippedAndReported() async throws {
        try await withSandbox { photosync, server in
            let items = [
                FeedItem("1", by: "Ana Lima", title: "Good"),
                FeedItem("../etc", by: "Ana Lima", title: "Bad id"),
                FeedItem("", by: "Ana Lima", title: "Empty id"),
            ]
            server.serveFeed(Feed.pages(items, perPage: 3))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(fetch.status == 0, "\(fetch)")
            let summary = try jsonObject(fetch)
            #expect(summary["received"] as? Int == 3)
            #expect(summary["inserted"] as? Int == 1)
            #expect(summary["skipped"] as? Int == 2)
            #expect(fetch.stderr.contains("skipped 2"), "\(fetch)")
            let ids = try jsonArray(try await photosync("list", "--format", "json")).compactMap { $0["id"] as? String }
            #expect(ids == ["1"])
        }
    }

    @Test func photoChangingHandsRemovesTheOrphanedPhotographer() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages([FeedItem("1", by: "Ana Lima", title: "A"), FeedItem("2", by: "Bruno Costa", title: "B")], perPage: 2))
            let first = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(first.status == 0, "\(first)")
            server.serveFeed(Feed.pages([FeedItem("1", by: "Bruno Costa", title: "A"), FeedItem("2", by: "Bruno Costa", title: "B")], perPage: 2))
            let second = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(second.status == 0, "\(second)")
            let summary = try jsonObject(second)
            #expect(summary["updated"] as? Int == 1)
            #expect(summary["photographers_removed"] as? Int == 1)
            let rows = try jsonArray(try await photosync("photographers", "--format", "json"))
            #expect(rows.map { $0["name"] as? String } == ["Bruno Costa"])
            #expect(rows.map { $0["photos"] as? Int } == [2])
        }
    }

    @Test func connectionClosedWithoutReplyIsRetriedThenFails() async throws {
        let closing = try RawSocketServer(.closeImmediately)
        defer { closing.stop() }
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let fetch = try await photosync("fetch", "--url", closing.baseURL + "/rest", "--api-key", "k", "--retries", "1")
        #expect(fetch.status == 69, "\(fetch)")
        #expect(closing.connectionCount == 2, "one try plus one retry")
        #expect(fetch.stderrLines.count == 2 && fetch.stderrLines.first?.contains("retry 1 of 1") == true, "a warning for the retry, then the error: \(fetch)")
    }
}
