import Foundation
import PhotoSyncTestSupport
import Testing

/// A cron fetch every 30 minutes: it stops at the first page of known photos, and warns of gaps (issue 13).
@Suite("incremental fetch", .onTestThreads)
struct IncrementalFetchTests {
    static func items(_ ids: ClosedRange<Int>) -> [FeedItem] { ids.map { FeedItem("\($0)", by: "Ana Lima", title: "P\($0)") } }

    static func fetch(_ photosync: PhotoSync, _ server: TestHTTPServer, _ extra: [String] = []) async throws -> PhotoSync.Result {
        try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", "--format", "json", "--db", photosync.db] + extra)
    }

    @Test(arguments: CatalogKind.allCases) func aSecondFetchWithNothingNewCostsOneRequest(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items(1...8), perPage: 2))
            #expect(try await Self.fetch(photosync, server).status == 0)
            #expect(server.requestedPages == [1, 2, 3, 4])
            let again = try await Self.fetch(photosync, server)
            #expect(again.status == 0, "\(again)")
            #expect(server.requestedPages == [1, 2, 3, 4, 1], "exactly one request")
            let summary = try jsonObject(again)
            #expect(summary["pages_skipped_known"] as? Int == 3)
            #expect(summary["unchanged"] as? Int == 2)
            #expect(summary["gap"] as? Bool == false)
        }
    }

    @Test(arguments: CatalogKind.allCases) func newPhotosOnTopAreFetchedUntilTheFirstKnownPage(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items(1...6), perPage: 2))
            #expect(try await Self.fetch(photosync, server).status == 0)
            // Four new photos on top: pages 1 and 2 are new, page 3 is known.
            server.serveFeed(Feed.pages(Self.items(11...14) + Self.items(1...6), perPage: 2))
            let again = try await Self.fetch(photosync, server)
            #expect(server.requestedPages.suffix(3) == [1, 2, 3])
            #expect(try jsonObject(again)["inserted"] as? Int == 4)
            #expect(try jsonObject(again)["pages_skipped_known"] as? Int == 2)
        }
    }

    @Test func fullAndAFailedPreviousRunWalkToTheLimit() async throws {
        try await withSandbox { (photosync: PhotoSync, server: TestHTTPServer) async throws in
            server.serveFeed(Feed.pages(Self.items(1...6), perPage: 2))
            #expect(try await Self.fetch(photosync, server).status == 0)
            #expect(try await Self.fetch(photosync, server, ["--full"]).status == 0)
            #expect(server.requestedPages.suffix(3) == [1, 2, 3])
            // A run that fails: the next fetch walks as far as its limit.
            server.route(Feed.path) { _ in .status(404) }
            #expect(try await Self.fetch(photosync, server, ["--retries", "0"]).status == 69, "a 404 is an API failure")
            server.serveFeed(Feed.pages(Self.items(1...6), perPage: 2))
            let before = server.requestedPages.count
            #expect(try await Self.fetch(photosync, server).status == 0)
            #expect(Array(server.requestedPages.dropFirst(before)) == [1, 2, 3])
        }
    }

    @Test(arguments: CatalogKind.allCases) func aFetchThatMeetsNothingKnownWarnsOfAGapEvenWhenQuiet(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            server.serveFeed(Feed.pages(Self.items(1...2), perPage: 2))
            #expect(try await Self.fetch(photosync, server).status == 0)
            server.serveFeed(Feed.pages(Self.items(21...26), perPage: 2))
            let gap = try await Self.fetch(photosync, server, ["--pages", "2", "--quiet"])
            #expect(gap.status == 0, "\(gap)")
            #expect(gap.stderr.contains("gap"), "\(gap)")
            #expect(try jsonObject(gap)["gap"] as? Bool == true)
            let runs = try #require(try jsonObject(try await photosync("status", "--format", "json"))["runs"] as? [[String: Any]])
            #expect(runs.map { $0["gap"] as? Bool } == [true, false])
        }
    }
}
