import Foundation
import Glibc
import PhotoSyncTestSupport
import Synchronization
import Testing

/// A 3-page feed of 2 photos a page whose page 2 answers only after `page2Delay` seconds (only the
/// first time it is asked for, with `firstOnly`), so a test can act while the fetch holds the lock
/// with page 1 saved and page 2 in flight.
func slowSecondPageServer(page2Delay: Double, firstOnly: Bool = false) throws -> ScriptedServer {
    let pages = (1...3).map { number in
        FeedJSON.page(number, of: 3, perPage: 2, total: 6,
                      photos: [FeedJSON.photo("\(number)1", owner: "Owner \(number)"), FeedJSON.photo("\(number)2", owner: "Ana Lima")])
    }
    let page2Requests = Atomic<Int>(0)
    return try ScriptedServer { page, _ in
        guard (1...3).contains(page) else { return .http(404) }
        if page == 2, !firstOnly || page2Requests.add(1, ordering: .relaxed).oldValue == 0 { sleepThrough(page2Delay) }
        return .json(pages[page - 1])
    }
}

/// Sleeps the whole `seconds` on a monotonic clock: a plain `usleep` ends early whenever the test
/// process takes a signal (every finished child process sends SIGCHLD), which cut page 2's delay.
func sleepThrough(_ seconds: Double) {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline { usleep(10_000) }
}

@Suite("SIGINT and SIGTERM during a fetch", .onTestThreads)
struct SignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalStopsAfterThePageBeingSaved(signal: Int32, expected: Int32) async throws {
        try await withSandbox { sandbox in
            // Page 2 answers only after 30 s, far longer than this test's task can be kept waiting
            // on a busy machine, so the signal always lands while the fetch waits for it (the
            // fetch abandons the request within about a second).
            let server = try slowSecondPageServer(page2Delay: 30)
            defer { server.stop() }
            let running = try sandbox.start(["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "2"])
            #expect(await eventually(within: 15) { server.requestedPages.contains(2) })
            #expect(running.process.isRunning, "the fetch must still be waiting for page 2")
            running.signal(signal)
            let result = await running.finish()
            #expect(!result.signalled, "\(result)")
            #expect(result.status == expected, "\(result)")
            #expect(result.stderrLines.count == 1, "\(result)")
            #expect(result.stderr.contains("page(s) saved; run again to continue"), "\(result)")
            // Page 3 may have been requested (it is downloaded while page 2 is saved) but is never saved.

            let report = try await sandbox("status", "--format", "json").object()
            let runs = report["runs"] as? [[String: Any]] ?? []
            #expect(runs.first?["outcome"] as? String == "interrupted", "\(runs)")
            #expect(runs.first?["finished"] != nil && !(runs.first?["finished"] is NSNull), "\(runs)")
            let ids = try await sandbox.ids()
            #expect(ids == ["11", "12", "21", "22"] || ids == ["11", "12"], "whole pages only: \(ids.sorted())")
            try CatalogInspector(path: sandbox.db).expectConsistent(pages: [["11", "12"], ["21", "22"], ["31", "32"]], "after signal \(signal)")
        }
    }
}

@Suite("concurrency: two fetches, readers and deletes during a fetch", .onTestThreads)
struct ConcurrencyTests {
    @Test func twoFetchesAtOnceOneProceedsOneExits75() async throws {
        try await withSandbox { sandbox in
            let server = try slowSecondPageServer(page2Delay: 5)
            defer { server.stop() }
            let args = ["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "2"]
            let first = try sandbox.start(args)
            let second = try sandbox.start(args)
            let results = [await first.finish(), await second.finish()]
            #expect(results.map(\.status).sorted() == [0, 75], "\(results)")
            let loser = try #require(results.first { $0.status == 75 })
            #expect(loser.stderrLines.count == 1, "\(loser)")
            #expect(try await sandbox.ids().count == 6)
            #expect(server.requestedPages.sorted() == [1, 2, 3], "the loser made no request")
        }
    }

    @Test func waitingFetchRunsAfterTheFirst() async throws {
        try await withSandbox { sandbox in
            // The first fetch's page 2 takes 12 s: long enough that the second surely starts while the
            // first holds the lock, however long a busy machine keeps this test's task waiting.
            let server = try slowSecondPageServer(page2Delay: 12, firstOnly: true)
            defer { server.stop() }
            let args = ["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "2", "--format", "json"]
            let first = try sandbox.start(args)
            // On a thread of its own: blocking tests holding the cooperative pool could keep this task
            // waiting past page 2's delay, and the second fetch would then start after the first ended.
            let (sawPage1, firstWasRunning, started) = await runOnDedicatedThread {
                let deadline = ContinuousClock.now + .seconds(15)
                while !server.requestedPages.contains(1), ContinuousClock.now < deadline { usleep(20_000) }
                return (server.requestedPages.contains(1), first.process.isRunning, Result { try sandbox.start(args + ["--wait"]) })
            }
            #expect(sawPage1)
            #expect(firstWasRunning, "the first fetch must still hold the lock when the second starts")
            let second = try started.get()
            let secondResult = await second.finish()
            let firstResult = await first.finish()
            #expect(firstResult.status == 0, "\(firstResult)")
            #expect(secondResult.status == 0, "\(secondResult)")
            #expect(secondResult.stderr.contains("waiting"), "\(secondResult)")
            // It ran after the first had completed, so it stopped at page 1, all known (incremental fetch).
            #expect(try secondResult.object()["unchanged"] as? Int == 2, "the second fetch ran after the first: \(secondResult)")
            #expect(try secondResult.object()["pages_skipped_known"] as? Int == 2, "\(secondResult)")
            #expect(server.requestedPages == [1, 2, 3, 1], "never interleaved: \(server.requestedPages)")
        }
    }

    /// Regression: the compatibility check opened the file with no busy timeout, so a reader that
    /// opened a catalog while a fetch was creating it failed with "database is locked" (exit 74).
    @Test func readersAndAFetchOpenABrandNewCatalogTogether() async throws {
        let page = FeedJSON.page(1, of: 1, perPage: 300, total: 300, photos: (0..<300).map { index in
            FeedJSON.photo("\(9_000 + index)", owner: "Owner \(index % 40)")
        })
        try await withSandbox { sandbox in
            let file = sandbox.directory + "/page.json"
            try page.write(toFile: file, atomically: true, encoding: .utf8)
            for round in 0..<8 {
                let db = sandbox.directory + "/new-\(round).sqlite"
                let fetch = try sandbox.start(["fetch", "--db", db, "--url", "file://" + file, "--quiet"])
                let status = try sandbox.start(["status", "--db", db])
                let list = try sandbox.start(["photographers", "--db", db])
                let delete = try sandbox.start(["delete", "9007", "--db", db])
                #expect(await fetch.finish().status == 0, "round \(round)")
                // A reader that starts before the fetch created the file finds no catalog (66): never a 74.
                for result in [await status.finish(), await list.finish()] {
                    #expect(result.status == 0 || result.status == 66, "round \(round): \(result)")
                }
                // The delete finds no catalog (66), or the photo not saved yet (1), or deletes it.
                let deleted = await delete.finish()
                #expect([0, 1, 66].contains(deleted.status), "round \(round): \(deleted)")
            }
        }
    }

    @Test func readersNeverSeeHalfAPage() async throws {
        let feed = try await GeneratedFeed.start(photos: 10_000, perPage: 500)
        defer { feed.stop() }
        let pages = try await feed.pageIDs()
        try await withSandbox { sandbox in
            // The readers start with the fetch, which creates the catalog: README promises that
            // status, list and photographers answer meanwhile. Before the file exists they find no
            // catalog (66); once one of them has read it, every later read succeeds.
            let running = try sandbox.start(["fetch", "--db", sandbox.db, "--url", feed.url, "--api-key", "k",
                                             "--per-page", "500", "--pages", "20", "--quiet"])
            var reads = 0
            var duringFetch = 0
            var sawPartial: [String] = []
            var catalogSeen = false
            while true {
                let fetching = running.process.isRunning
                let status = try await sandbox("status", "--format", "json")
                let list = try await sandbox("list", "--format", "json")
                let photographers = try await sandbox("photographers", "--format", "json")
                for result in [status, list, photographers] {
                    #expect(result.status == 0 || (result.status == 66 && !catalogSeen), "a reader failed during the fetch: \(result)")
                    catalogSeen = catalogSeen || result.status == 0
                }
                if status.status == 0, let count = try status.object()["photos"] as? Int, count % 500 != 0 {
                    sawPartial.append("status photos \(count)")
                }
                if list.status == 0 {
                    let ids = Set(try list.array().compactMap { $0["id"] as? String })
                    let partial = partialPages(ids, pages)
                    if !partial.isEmpty { sawPartial.append("list partial pages \(partial)") }
                }
                if photographers.status == 0 {
                    let empty = try photographers.array().filter { ($0["photos"] as? Int ?? 0) == 0 }
                    if !empty.isEmpty { sawPartial.append("photographers with 0 photos: \(empty.count)") }
                }
                reads += 1
                if fetching { duringFetch += 1 } else { break }
            }
            let result = await running.finish()
            #expect(result.status == 0, "\(result)")
            #expect(duringFetch >= 1, "at least one read while the fetch ran")
            #expect(catalogSeen, "a reader read the catalog the fetch created")
            #expect(sawPartial.isEmpty, "readers saw half-saved state: \(sawPartial)")
            print("photosync readers during fetch: \(duringFetch) rounds of status/list/photographers while fetching, \(reads) total")
        }
    }

    /// README: a delete during a fetch "waits for it and is not lost". The server answers each
    /// page after 0.2 s, so the 20-page walk lasts at least 4 s; the test proves the overlap (the
    /// fetch's run is still running, with some pages saved and not all, right before the delete
    /// starts) and then requires the delete to succeed and its photo to stay deleted.
    @Test func deleteDuringAFetchIsNeverLost() async throws {
        let feed = try await GeneratedFeed.start(photos: 10_000, perPage: 500, delay: 0.2)
        defer { feed.stop() }
        let pages = try await feed.pageIDs()
        try await withSandbox { sandbox in
            #expect(try await sandbox.createEmptyCatalog().status == 0, "create the catalog first")
            let running = try sandbox.start(["fetch", "--db", sandbox.db, "--url", feed.url, "--api-key", "k",
                                             "--per-page", "500", "--pages", "20", "--quiet"])
            var before: [String: Any] = [:]
            var failedReads: [String] = []
            let saved = try await eventually(within: 60) {
                let status = try await sandbox("status", "--format", "json")
                guard status.status == 0 else {
                    failedReads.append("\(status)")
                    return false
                }
                before = try status.object()
                return (before["photos"] as? Int ?? 0) >= 500
            }
            #expect(saved && failedReads.isEmpty, "status during the fetch: \(failedReads)")
            // Proof of overlap: mid-walk when the delete starts.
            let photosBefore = before["photos"] as? Int ?? 0
            let runBefore = (before["runs"] as? [[String: Any]])?.first
            let midWalk = running.process.isRunning && photosBefore >= 500 && photosBefore < 10_000
                && runBefore?["outcome"] as? String == "running"
            #expect(midWalk, "the fetch was not mid-walk when the delete started: \(before)")
            let victim = pages[0][7]
            let delete = try await sandbox("delete", victim)
            let fetch = await running.finish()
            #expect(fetch.status == 0, "\(fetch)")
            #expect(delete.status == 0, "a delete during a fetch waits for it: \(delete)")
            let ids = try await sandbox.ids()
            #expect(!ids.contains(victim), "the delete was not lost")
            #expect(ids.count == 9_999)
            try CatalogInspector(path: sandbox.db).expectConsistent(_: "after delete during fetch")
        }
    }
}
