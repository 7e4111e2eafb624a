import Foundation
import PhotoSyncTestSupport
import Testing

/// Paging the way Flickr pages, and runs that died (issue 13), through the binary.
@Suite("paging a feed that shifts", .onTestThreads)
struct FeedPagingTests {
    static func items(_ ids: ClosedRange<Int>) -> [FeedItem] { ids.map { FeedItem("\($0)", by: "Ana Lima", title: "P\($0)") } }

    static func fetch(_ photosync: PhotoSync, _ server: TestHTTPServer, _ extra: [String] = []) async throws -> PhotoSync.Result {
        try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", "--format", "json", "--db", photosync.db] + extra)
    }

    @Test func aPagePastTheEndAnsweredWithTheLastPageIsNotSavedAgain() async throws {
        try await withSandbox { photosync, server in
            // The API claims 4 pages but holds 2: asked for page 3, it sends page 2 again.
            let last = Feed.page(2, of: 4, perPage: 2, total: 8, Self.items(3...4))
            server.serveFeed([1: Feed.page(1, of: 4, perPage: 2, total: 8, Self.items(1...2)), 2: last, 3: last, 4: last])
            let fetch = try await Self.fetch(photosync, server)
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 2, 3])
            let summary = try jsonObject(fetch)
            #expect(summary["pages"] as? Int == 2)
            #expect(summary["received"] as? Int == 4)
            #expect(summary["repeated"] as? Int == 0)
            try await expectInvariants(photosync)
        }
    }

    @Test func pagesShrinkingMidWalkEndTheWalkEarlier() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed([1: Feed.page(1, of: 4, perPage: 2, total: 8, Self.items(1...2)),
                              2: Feed.page(2, of: 2, perPage: 2, total: 4, Self.items(3...4)),
                              3: Feed.page(3, of: 4, perPage: 2, total: 8, Self.items(5...6))])
            let fetch = try await Self.fetch(photosync, server)
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 2])
            #expect(try jsonObject(fetch)["more_pages"] as? Int == 0)
        }
    }

    @Test func anEmptyPageBeforeTheEndIsNotTheEnd() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed([1: Feed.page(1, of: 3, perPage: 2, total: 4, Self.items(1...2)),
                              2: Feed.page(2, of: 3, perPage: 2, total: 4, []),
                              3: Feed.page(3, of: 3, perPage: 2, total: 4, Self.items(3...3))])
            let fetch = try await Self.fetch(photosync, server)
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 2, 3])
            #expect(try jsonObject(fetch)["inserted"] as? Int == 3)
        }
    }

    @Test func morePagesThanTheLimitAreReported() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items(1...10), perPage: 2))
            let json = try await Self.fetch(photosync, server, ["--pages", "2"])
            #expect(try jsonObject(json)["more_pages"] as? Int == 3)
            let text = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", "--pages", "4", "--full")
            #expect(text.stdout.contains("more pages available:   1\n"), "\(text)")
        }
    }

    /// SIGKILL after page 1 was saved: the record shows that page while it ran, `status` shows the
    /// dead run as abandoned at once, and the next fetch marks it so in the catalog.
    @Test(arguments: CatalogKind.allCases) func aKilledRunIsAbandonedNotRunningForever(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let page1 = Feed.page(1, of: 2, perPage: 2, total: 4, Self.items(1...2))
            server.route(Feed.path) { request in
                request.query["page"] == "1"
                    ? .text(page1, headers: ["Content-Type": "application/json"])
                    : TestResponse(status: 503, headers: ["Retry-After": "60"])
            }
            let running = try photosync.start(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2",
                                               "--retries", "5", "--wait", "--db", photosync.db])
            var pages: Int?
            let deadline = ContinuousClock.now + .seconds(400)
            while pages != 1 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                let status = try? jsonObject(try await photosync("status", "--format", "json"))
                let run = (status?["runs"] as? [[String: Any]])?.first
                if run?["outcome"] as? String == "running" { pages = run?["pages"] as? Int }
            }
            #expect(pages == 1, "the running record shows the page saved")
            running.signal(SIGKILL)
            _ = await running.finish()
            let after = try jsonObject(try await photosync("status", "--format", "json"))
            #expect((after["runs"] as? [[String: Any]])?.first?["outcome"] as? String == "abandoned")

            server.serveFeed([1: Feed.page(1, of: 1, perPage: 2, total: 2, Self.items(1...2))])
            #expect(try await Self.fetch(photosync, server).status == 0)
            let runs = try #require(try jsonObject(try await photosync("status", "--format", "json"))["runs"] as? [[String: Any]])
            #expect(runs.map { $0["outcome"] as? String } == ["succeeded", "abandoned"])
            try await expectInvariants(photosync)
        }
    }

    @Test func twoFetchesThroughASymlinkShareOneLock() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items(1...2), perPage: 2))
            #expect(try await Self.fetch(photosync, server).status == 0)
            let page1 = Feed.page(1, of: 2, perPage: 2, total: 4, Self.items(1...2))
            server.route(Feed.path) { request in
                request.query["page"] == "1"
                    ? .text(page1, headers: ["Content-Type": "application/json"])
                    : TestResponse(status: 503, headers: ["Retry-After": "60"])
            }
            let alias = photosync.directory + "/alias.sqlite"
            try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: photosync.db)
            let first = try photosync.start(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2",
                                             "--retries", "5", "--full", "--db", photosync.db])
            for _ in 0..<200 where server.requestedPages.count < 3 { try await Task.sleep(for: .milliseconds(50)) }
            let second = try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--db", alias])
            first.signal(SIGTERM)
            _ = await first.finish()
            #expect(second.status == 75, "\(second)")
        }
    }

    @Test func aCatalogWithTwoHardLinksIsRefusedForWriting() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items(1...2), perPage: 2))
            #expect(try await Self.fetch(photosync, server).status == 0)
            let second = photosync.directory + "/link.sqlite"
            #expect(link(photosync.db, second) == 0)
            for path in [photosync.db, second] {
                let fetch = try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--db", path])
                #expect(fetch.status == 74, "\(fetch)")
                #expect(fetch.stderr.contains("hard links"), "\(fetch)")
                let delete = try await photosync.run(["delete", "1", "--db", path])
                #expect(delete.status == 74, "\(delete)")
            }
            let list = try await photosync("list", "--format", "json")
            #expect(list.status == 0 && list.stderr.contains("hard links"), "\(list)")
            #expect(try jsonArray(list).count == 2)
        }
    }
}
