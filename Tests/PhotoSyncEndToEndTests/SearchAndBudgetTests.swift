import Foundation
import PhotoSyncTestSupport
import Testing

/// `fetch --search` (flickr.photos.search resumed from a high-water mark per query) and the API
/// budget (every call recorded; a fetch stops with 75 once the key has spent its hour).
@Suite("Search sources and the API budget", .onTestThreads)
struct SearchAndBudgetTests {
    /// Three photos uploaded at 1700000100, 1700000200 and 1700000300, newest first, two a page.
    static let cats = Feed.pages([
        FeedItem("3", by: "Ana Lima", title: "C", uploaded: "1700000300"),
        FeedItem("2", by: "Ana Lima", title: "B", uploaded: "1700000200"),
        FeedItem("1", by: "Bruno Costa", title: "A", uploaded: "1700000100"),
    ], perPage: 2)

    @Test func aSearchSendsItsTermsAndResumesFromItsMark() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Self.cats)
            let first = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search", "--tags", "cats, kittens", "--per-page", "2")
            #expect(first.status == 0, "\(first)")
            let sent = server.requests(to: Feed.path)
            #expect(sent.map { $0.query["method"] } == ["flickr.photos.search", "flickr.photos.search"])
            #expect(sent.allSatisfy { $0.query["tags"] == "cats, kittens" && $0.query["sort"] == "date-posted-desc" })
            #expect(sent.allSatisfy { $0.query["min_upload_date"] == nil }, "no mark before the first completed fetch")

            let second = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search", "--tags", "cats, kittens", "--per-page", "2")
            #expect(second.status == 0, "\(second)")
            let resumed = server.requests(to: Feed.path).dropFirst(2)
            #expect(resumed.first?.query["min_upload_date"] == String(1_700_000_300 - 86_400), "the newest upload stored, minus a day")

            let other = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search", "--user", "12@N01", "--per-page", "2")
            #expect(other.status == 0, "\(other)")
            let otherQuery = try #require(server.requests(to: Feed.path).last)
            #expect(otherQuery.query["user_id"] == "12@N01" && otherQuery.query["tags"] == nil)
            #expect(otherQuery.query["min_upload_date"] == nil, "each query has its own mark")
            try await expectInvariants(photosync)
        }
    }

    @Test func theMarkMovesOnlyWhenAFetchCompletes() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Self.cats)
            let first = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search", "--text", "harbour", "--pages", "1", "--per-page", "2")
            #expect(first.status == 0, "\(first)")
            // A newer photo arrives, but the fetch that receives it fails on its second page.
            let newer = Feed.page(1, of: 2, perPage: 2, total: 3, [FeedItem("9", by: "Ana Lima", title: "N", uploaded: "1700900000")])
            server.route(Feed.path) { request in request.query["page"] == "1" ? .text(newer) : .text("<html>")}
            let failed = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search", "--text", "harbour", "--per-page", "2", "--full")
            #expect(failed.status == 65, "\(failed)")
            server.serveFeed(Self.cats)
            let third = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search", "--text", "harbour", "--per-page", "2", "--pages", "1")
            #expect(third.status == 0, "\(third)")
            #expect(server.requests(to: Feed.path).last?.query["min_upload_date"] == String(1_700_000_300 - 86_400))
        }
    }

    @Test func searchNeedsATermAndTermsNeedSearch() async throws {
        try await withSandbox { photosync, server in
            let bare = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search")
            #expect(bare.status == 64 && bare.stderrLines.count == 1 && bare.stderr.contains("--search needs"), "\(bare)")
            let stray = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--tags", "cats")
            #expect(stray.status == 64 && stray.stderr.contains("--tags needs --search"), "\(stray)")
            #expect(server.requests(to: Feed.path).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: photosync.db))
        }
    }

    @Test func searchTermsComeFromTheConfigFile() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Self.cats)
            let config = photosync.directory + "/config/search.yaml"
            try "api_key: k\nsearch_user: 77@N01\nsearch_text: harbour\n".write(toFile: config, atomically: true, encoding: .utf8)
            let fetch = try await photosync("fetch", "--config", config, "--url", server.feedURL, "--search", "--text", "boats", "--per-page", "2")
            #expect(fetch.status == 0, "\(fetch)")
            let sent = try #require(server.requests(to: Feed.path).first)
            #expect(sent.query["user_id"] == "77@N01" && sent.query["text"] == "boats", "flags win over the config file")
        }
    }

    @Test func theBudgetStopsAFetchWith75KeepingItsPages() async throws {
        try await withSandbox { photosync, server in
            let pages = Feed.pages((1...6).map { FeedItem("\($0)", by: "Ana Lima", title: "T\($0)") }, perPage: 2)
            server.serveFeed(pages)
            let budget = ["PHOTOSYNC_API_BUDGET": "2"]
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", environment: budget)
            #expect(fetch.status == 75, "\(fetch)")
            #expect(fetch.stderrLines.count == 1 && fetch.stderr.contains("api_budget") && fetch.stderr.contains("frees up"), "\(fetch)")
            #expect(server.requestedPages == [1, 2], "no third call")
            let list = try jsonArray(try await photosync("list", "--format", "json"))
            #expect(Set(list.compactMap { $0["id"] as? String }) == ["1", "2", "3", "4"], "the pages fetched are kept")
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            #expect(status["api_calls_last_hour"] as? Int == 2)

            let again = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", environment: budget)
            #expect(again.status == 75, "\(again)")
            #expect(server.requestedPages == [1, 2], "a spent budget makes no call at all")
            let otherKey = try await photosync("fetch", "--url", server.feedURL, "--api-key", "other", "--per-page", "2", "--pages", "1", environment: budget)
            #expect(otherKey.status == 0, "each key has its own budget: \(otherKey)")
            try await expectInvariants(photosync)
        }
    }

    @Test func everyCallIsRecordedRetriesAndDryRunsIncludedButNeverTheKey() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .status(500), .text(Self.cats[1]!), .text(Self.cats[1]!))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "SECRET-KEY-5", "--pages", "1", "--retries", "1")
            #expect(fetch.status == 0, "\(fetch)")
            let dryRun = try await photosync("fetch", "--url", server.feedURL, "--api-key", "SECRET-KEY-5", "--pages", "1", "--dry-run", "--full")
            #expect(dryRun.status == 0, "\(dryRun)")
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            #expect(status["api_calls_last_hour"] as? Int == 3, "two attempts, then the dry run's call")
            #expect((status["runs"] as? [Any])?.count == 1, "the dry run recorded no run")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: photosync.db))
            #expect(bytes.range(of: Data("SECRET-KEY-5".utf8)) == nil, "the catalog holds a fingerprint, not the key")
        }
    }
}

@Suite("Each photo records its source", .onTestThreads)
struct PhotoSourceTests {
    @Test func aPhotoKeepsTheSourceThatFirstBroughtItAndListFiltersByIt() async throws {
        try await withSandbox { photosync, server in
            let recent = Feed.pages([FeedItem("1", by: "Ana Lima", title: "A"), FeedItem("2", by: "Ana Lima", title: "B")], perPage: 2)
            server.serveFeed(recent)
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k").status == 0)
            let found = Feed.pages([FeedItem("2", by: "Ana Lima", title: "B (edited)"), FeedItem("3", by: "Bruno Costa", title: "C")], perPage: 2)
            server.serveFeed(found)
            let search = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--search", "--tags", "harbour", "--format", "json")
            #expect(search.status == 0, "\(search)")
            #expect(try jsonObject(search)["updated"] as? Int == 1, "the title changed; the source alone never counts as an update")

            let all = try jsonArray(try await photosync("list", "--format", "json"))
            let sources = Dictionary(uniqueKeysWithValues: all.map { ($0["id"] as? String ?? "", $0["source"] as? String ?? "?") })
            #expect(sources == ["1": "recent", "2": "recent", "3": "search tags=harbour"])
            let fromSearch = try jsonArray(try await photosync("list", "--source", "search tags=harbour", "--format", "json"))
            #expect(fromSearch.compactMap { $0["id"] as? String } == ["3"])
            let csv = try await photosync("list", "--source", "recent", "--format", "csv")
            #expect(csv.stdout.split(separator: "\r\n").count == 3 && csv.stdout.hasPrefix("id,title,subtitle,photographer,image_url,uploaded,source\r\n"), "\(csv)")
            try await expectInvariants(photosync)
        }
    }
}
