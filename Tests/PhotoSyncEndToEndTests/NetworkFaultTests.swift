import Foundation
import PhotoSyncTestSupport
import Testing

@Suite("HTTP faults, feed errors, redaction, lock", .onTestThreads)
struct NetworkFaultTests {
    static let pageOne = Feed.page(1, of: 1, perPage: 2, total: 2, [
        FeedItem("11", by: "Ana Lima", title: "A"), FeedItem("12", by: "Ana Lima", title: "B"),
    ])

    @Test func retriesServerErrorsThenSucceeds() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .status(500), .status(500), .text(Self.pageOne))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--retries", "3", "--format", "json")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 1, 1])
            #expect(try jsonObject(fetch)["inserted"] as? Int == 2)
        }
    }

    @Test func honoursRetryAfterOn429() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .status(429, headers: ["Retry-After": "0"]), .text(Self.pageOne))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 1])
        }
    }

    @Test func eachRetryIsAWarningLineAndTheErrorEndsWithAHint() async throws {
        try await withSandbox { photosync, _ in
            let refused = try closedLoopbackURL()
            let fetch = try await photosync("fetch", "--url", refused, "--api-key", "k", "--retries", "2")
            #expect(fetch.status == 69, "\(fetch)")
            let lines = fetch.stderrLines
            #expect(lines.count == 3, "\(fetch)")
            #expect(lines.first?.contains("retry 1 of 2 in") == true && lines.dropFirst().first?.contains("retry 2 of 2 in") == true, "\(fetch)")
            #expect(lines.last?.contains("check --url, the network") == true, "\(fetch)")
            let quiet = try await photosync("fetch", "--url", refused, "--api-key", "k", "--retries", "1", "--quiet")
            #expect(quiet.status == 69 && quiet.stderrLines.count == 1, "retries are not shown under --quiet: \(quiet)")
        }
    }

    @Test func notFoundIsNotRetried() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .status(404))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--retries", "3")
            #expect(fetch.status == 69, "\(fetch)")
            #expect(server.requestedPages == [1])
            #expect(fetch.stderrLines.count == 1, "\(fetch)")
        }
    }

    @Test func silentServerTimesOut() async throws {
        let silent = try RawSocketServer(.neverRespond)
        defer { silent.stop() }
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let fetch = try await photosync("fetch", "--url", silent.baseURL + "/rest", "--api-key", "k", "--timeout", "1", "--retries", "0")
        #expect(fetch.status == 69, "\(fetch)")
        #expect(silent.connectionCount == 1)
    }

    @Test func malformedJSONIsBadData() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .text("{\"photos\": {\"page\": 1, "))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 65, "\(fetch)")
            #expect(fetch.stderrLines.count == 1, "\(fetch)")
        }
    }

    @Test func earlierPageStaysSavedWhenALaterOneFails() async throws {
        try await withSandbox { photosync, server in
            let page1 = Feed.page(1, of: 2, perPage: 2, total: 4, [
                FeedItem("11", by: "Ana Lima", title: "A"), FeedItem("12", by: "Bruno Costa", title: "B"),
            ])
            server.route(Feed.path) { request in
                request.query["page"] == "1" ? .text(page1) : .text("<html>garbage</html>")
            }
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--per-page", "2", "--pages", "2")
            #expect(fetch.status == 65, "\(fetch)")
            #expect(server.requestedPages.sorted() == [1, 2])

            let list = try jsonArray(try await photosync("list", "--sort", "id", "--format", "json"))
            #expect(list.compactMap { $0["id"] as? String } == ["11", "12"])
            let status = try jsonObject(try await photosync("status", "--format", "json"))
            #expect(status["photos"] as? Int == 2)
            #expect(status["photographers"] as? Int == 2)
            let runs = try #require(status["runs"] as? [[String: Any]])
            #expect(runs.count == 1)
            #expect(runs.first?["outcome"] as? String == "failed")
            #expect(runs.first?["pages"] as? Int == 1)
        }
    }

    @Test(arguments: [true, false])
    func apiKeyIsNeverPrinted(viaEnvironment: Bool) async throws {
        try await withSandbox { photosync, server in
            let key = "SECRET-KEY-123"
            server.route(Feed.path, .status(500))
            var args = ["fetch", "--url", server.feedURL, "--retries", "0", "--verbose", "--db", photosync.db]
            if !viaEnvironment { args += ["--api-key", key] }
            let fetch = try await photosync.run(args, environment: viaEnvironment ? ["PHOTOSYNC_API_KEY": key] : [:])
            #expect(fetch.status == 69, "\(fetch)")
            #expect(!fetch.stdout.contains(key), "\(fetch)")
            #expect(!fetch.stderr.contains(key), "\(fetch)")
            #expect(!fetch.stderr.isEmpty)
            #expect(server.requests(to: Feed.path).map { $0.query["api_key"] } == [key])

            // Nor does status show it in the recorded run error.
            let status = try await photosync("status", "--format", "json")
            #expect(!status.stdout.contains(key), "\(status)")
        }
    }

    @Test func secondFetchFailsFastWhileTheFirstHoldsTheLock() async throws {
        // Lives until stopped: under a full suite the second fetch alone can outlast the default 20 s.
        let slow = try RawSocketServer(.neverRespond)
        defer { slow.stop() }
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let first = try photosync.start(["fetch", "--db", photosync.db, "--url", slow.baseURL + "/rest", "--api-key", "k",
                                         "--timeout", "120", "--retries", "0"])
        // On a thread of its own, up to the signal: blocking tests holding the cooperative pool could
        // keep this task waiting past the first fetch's 120 s timeout.
        let (connected, second, firstWasRunning, firstResult) = await runOnDedicatedThread {
            // The lock is taken before the first request, so a connection means the lock is held.
            let deadline = ContinuousClock.now + .seconds(10)
            while slow.connectionCount == 0, ContinuousClock.now < deadline { usleep(20_000) }
            let connected = slow.connectionCount
            let second = Result {
                try photosync.start(["fetch", "--db", photosync.db, "--url", slow.baseURL + "/rest", "--api-key", "k",
                                     "--timeout", "3", "--retries", "0"]).wait()
            }
            let firstWasRunning = first.process.isRunning
            first.signal(SIGTERM)
            return (connected, second, firstWasRunning, first.wait())
        }
        #expect(connected == 1)
        let secondResult = try second.get()
        #expect(secondResult.status == 75, "\(secondResult)")
        #expect(secondResult.stderrLines.count == 1, "\(secondResult)")
        // "At once" means without waiting for the lock: the first fetch (120 s timeout) still runs.
        #expect(firstWasRunning, "the first fetch still holds the lock")
        #expect(slow.connectionCount == 1, "the second fetch never reached the server")
        #expect(firstResult.status == 143, "\(firstResult)")
    }
}
