import Foundation
import PhotoSyncTestSupport
import Testing

/// A walk the page limit cut is finished by later fetches (issue 25, part 1): cron runs with the
/// same limit end with every photo the feed still serves, with no `--full`, and then cost one call.
@Suite("catching up after a cut walk", .onTestThreads)
struct CatchUpTests {
    static func fetch(_ photosync: PhotoSync, _ server: TestHTTPServer, pages: Int, perPage: Int) async throws -> PhotoSync.Result {
        try await photosync.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "\(perPage)", "--pages", "\(pages)",
                                 "--format", "json", "--db", photosync.db])
    }

    static func storedIDs(_ photosync: PhotoSync) async throws -> Set<String> {
        Set(try jsonArray(try await photosync("list", "--format", "json")).compactMap { $0["id"] as? String })
    }

    static func sources(_ photosync: PhotoSync) async throws -> [[String: Any]] {
        try #require(try jsonObject(try await photosync("status", "--format", "json"))["sources"] as? [[String: Any]])
    }

    /// Fetches, pushing `newPerRun` photos on top before each run, until `status` says the source is
    /// complete (at most `rounds` runs); returns the pages each run spent catching up.
    static func runUntilComplete(
        _ photosync: PhotoSync, _ server: TestHTTPServer, _ feed: GrowingFeed, pages: Int, newPerRun: Int, rounds: Int
    ) async throws -> [Int] {
        var backfill: [Int] = []
        for _ in 0..<rounds {
            feed.push(newPerRun)
            let run = try await fetch(photosync, server, pages: pages, perPage: feed.perPage)
            #expect(run.status == 0, "\(run)")
            backfill.append(try jsonObject(run)["backfill_pages"] as? Int ?? -1)
            try await expectInvariants(photosync)
            if try await sources(photosync).first?["complete"] as? Bool == true { break }
        }
        return backfill
    }

    @Test(arguments: CatalogKind.allCases)
    func cronRunsWithTheSameLimitStoreAFeedMuchLongerThanTheLimitWhileItGrows(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let feed = GrowingFeed(photos: 100, perPage: 5)
            feed.serve(on: server)
            let first = try await Self.fetch(photosync, server, pages: 4, perPage: 5)
            #expect(first.status == 0, "\(first)")
            #expect(try jsonObject(first)["more_pages"] as? Int == 16)
            #expect(try jsonObject(first)["backfill_pages"] as? Int == 0)
            let cut = try #require(try await Self.sources(photosync).first)
            #expect(cut["source"] as? String == "recent")
            #expect(cut["complete"] as? Bool == false && cut["backfill_pending"] as? Bool == true, "\(cut)")
            #expect(cut["last_success"] is String)
            #expect(try await photosync("status").stdout.contains("recent: catching up"))

            let backfill = try await Self.runUntilComplete(photosync, server, feed, pages: 4, newPerRun: 3, rounds: 30)
            #expect(backfill.allSatisfy { $0 >= 1 }, "every run until complete caught up some: \(backfill)")
            #expect(try await Self.storedIDs(photosync) == Set(feed.ids), "every photo the feed serves is stored")

            let requests = server.requests(to: Feed.path).count
            let idle = try await Self.fetch(photosync, server, pages: 4, perPage: 5)
            #expect(server.requests(to: Feed.path).count == requests + 1, "nothing new, nothing pending: one call")
            #expect(try jsonObject(idle)["backfill_pages"] as? Int == 0)
            let done = try #require(try await Self.sources(photosync).first)
            #expect(done["complete"] as? Bool == true && done["backfill_pending"] as? Bool == false, "\(done)")
            #expect(try await photosync("status").stdout.contains("recent: complete"))
            try await expectInvariants(photosync)
        }
    }

    /// The case: 60 new photos, 5 pages of 10. The cut run warns that the next runs catch
    /// up; the next run, with nothing new, takes the 10 it missed and stops at photos stored before
    /// (page 7), not walking on to the feed's end (page 9).
    @Test(arguments: CatalogKind.allCases) func theGapAfterACutWalkIsClosedByTheNextRun(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let feed = GrowingFeed(photos: 30, perPage: 10)
            feed.serve(on: server)
            #expect(try await Self.fetch(photosync, server, pages: 5, perPage: 10).status == 0)
            feed.push(60)
            let gap = try await Self.fetch(photosync, server, pages: 5, perPage: 10)
            #expect(gap.status == 0, "\(gap)")
            #expect(try jsonObject(gap)["inserted"] as? Int == 50 && jsonObject(gap)["gap"] as? Bool == true)
            #expect(gap.stderr.contains("the next fetches catch up on the rest, up to 5 page(s) each"), "\(gap.stderr)")
            #expect(!gap.stderr.contains("fetch more pages"), "\(gap.stderr)")
            try await expectInvariants(photosync)

            let before = server.requests(to: Feed.path).count
            let next = try await Self.fetch(photosync, server, pages: 5, perPage: 10)
            #expect(next.status == 0, "\(next)")
            #expect(try jsonObject(next)["inserted"] as? Int == 10, "\(next)")
            #expect(try jsonObject(next)["backfill_pages"] as? Int == 2, "page 6, then page 7 reaches photos stored before: \(next)")
            #expect(server.requestedPages.dropFirst(before) == [1, 6, 7])
            #expect(try await Self.storedIDs(photosync) == Set(feed.ids))
            #expect(try await Self.sources(photosync).first?["complete"] as? Bool == true)
            try await expectInvariants(photosync)
        }
    }

    /// SIGKILL while a catch-up waits for a page: later runs still end with every photo.
    @Test(arguments: CatalogKind.allCases) func aKillMidCatchUpStillConverges(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let feed = GrowingFeed(photos: 60, perPage: 5)
            feed.serve(on: server)
            #expect(try await Self.fetch(photosync, server, pages: 4, perPage: 5).status == 0)
            // The next run: page 1 is known, then the catch up saves pages 5 and 6 and waits at 7.
            feed.hold(page: 7, with: TestResponse(status: 503, headers: ["Retry-After": "60"]))
            let running = try photosync.start(["fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "5", "--pages", "4",
                                               "--retries", "5", "--wait", "--db", photosync.db])
            var caughtUp: Int?
            let deadline = ContinuousClock.now + .seconds(400)
            while caughtUp != 2 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                let run = (try? jsonObject(try await photosync("status", "--format", "json")))?["runs"] as? [[String: Any]]
                if run?.first?["outcome"] as? String == "running" { caughtUp = run?.first?["backfill_pages"] as? Int }
            }
            #expect(caughtUp == 2, "the running record shows the pages caught up")
            running.signal(SIGKILL)
            _ = await running.finish()
            feed.release()
            try await expectInvariants(photosync)

            _ = try await Self.runUntilComplete(photosync, server, feed, pages: 4, newPerRun: 2, rounds: 30)
            #expect(try await Self.storedIDs(photosync) == Set(feed.ids))
            let requests = server.requests(to: Feed.path).count
            #expect(try await Self.fetch(photosync, server, pages: 4, perPage: 5).status == 0)
            #expect(server.requests(to: Feed.path).count == requests + 1)
            try await expectInvariants(photosync)
        }
    }

    /// Photos taken off the feed above the cut move the unfinished part up: the page the hint names
    /// lies past photos never seen, and the catch up steps back to the page holding the last photo
    /// stored, leaving no hole.
    @Test func photosLeavingTheFeedAboveTheCutLeaveNoHole() async throws {
        try await withSandbox { photosync, server in
            let feed = GrowingFeed(photos: 100, perPage: 5)
            feed.serve(on: server)
            #expect(try await Self.fetch(photosync, server, pages: 4, perPage: 5).status == 0)
            feed.remove(91...95)
            let before = server.requests(to: Feed.path).count
            let next = try await Self.fetch(photosync, server, pages: 4, perPage: 5)
            #expect(next.status == 0, "\(next)")
            #expect(server.requestedPages.dropFirst(before) == [1, 5, 4, 3], "page 3 holds photo 81, the last stored")
            _ = try await Self.runUntilComplete(photosync, server, feed, pages: 4, newPerRun: 0, rounds: 30)
            #expect(try await Self.storedIDs(photosync).isSuperset(of: feed.ids), "photos 76 to 80 are not skipped")
            try await expectInvariants(photosync)
        }
    }
}
