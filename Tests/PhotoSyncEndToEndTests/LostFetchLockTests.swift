import Foundation
import PhotoSyncTestSupport
import Synchronization
import Testing

/// A PostgreSQL catalog's fetch lock is a session advisory lock: it ends with its connection, which
/// the server may end while the fetch goes on (issue 21). The fetch notices before its next page's
/// save: it takes the lock again when it is free, and stops with 75 when another fetch holds it.
@Suite("a fetch whose lock connection ends", .onTestThreads)
struct LostFetchLockTests {
    static let items = (1...6).map { FeedItem("\($0)", by: ["Ana Lima", "Bruno Costa"][$0 % 2], title: "P\($0)") }

    /// Pages the feed holds back (503, Retry-After: 3; a fetch retries 10 times) from the fetch
    /// using an API key: "a2" is page 2 for key "a".
    final class Gates: Sendable {
        private let closed: Mutex<Set<String>>
        init(_ closed: Set<String>) { self.closed = Mutex(closed) }
        func open(_ gate: String) { _ = closed.withLock { $0.remove(gate) } }
        func isClosed(_ gate: String) -> Bool { closed.withLock { $0.contains(gate) } }
    }

    static func serve(_ server: TestHTTPServer, _ gates: Gates) {
        let pages = Feed.pages(items, perPage: 2)
        server.route(Feed.path) { request in
            let (page, key) = (request.query["page"] ?? "", request.query["api_key"] ?? "")
            if gates.isClosed(key + page) { return TestResponse(status: 503, headers: ["Retry-After": "3"]) }
            guard let body = Int(page).flatMap({ pages[$0] }) else { return .status(404) }
            return .text(body, headers: ["Content-Type": "application/json"])
        }
    }

    static func fetch(_ db: String, _ server: TestHTTPServer, key: String) -> [String] {
        ["fetch", "--url", server.feedURL, "--api-key", key, "--per-page", "2", "--retries", "10", "--db", db]
    }

    /// How many sessions hold the catalog's fetch lock now (as `pg_locks` says).
    static func lockHolders(_ url: String) async throws -> Int {
        Int(try await PostgresTestCatalog.query(url, Self.lockRows("count(*)"))) ?? -1
    }

    /// Ends the sessions that hold the catalog's fetch lock (`pg_terminate_backend`); returns how many.
    static func terminateLockHolders(_ url: String) async throws -> Int {
        let ended = try await PostgresTestCatalog.query(url, Self.lockRows("pg_terminate_backend(pid)::text"))
        return ended.split(separator: "\n").filter { $0 == "true" }.count
    }

    private static func lockRows(_ select: String) -> String {
        """
        SELECT \(select) FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND classid = hashtext('photosync fetch')::oid AND objid = hashtext(current_schema())::oid
        """
    }

    static func runs(_ photosync: PhotoSync, db: String) async throws -> [[String: Any]] {
        try #require(try jsonObject(try await photosync.run(["status", "--format", "json", "--db", db]))["runs"] as? [[String: Any]])
    }

    /// A's lock connection is terminated mid-fetch; B starts and takes the free lock; A, at its
    /// next page, finds it taken and stops with 75, its first page kept. Run times never overlap.
    @Test func aFetchWhoseLockWasTakenStopsWith75() async throws {
        try await withSandbox(.postgres) { photosync, server in
            let gates = Gates(["a2", "b2"])
            Self.serve(server, gates)
            let hostA = try photosync.start(Self.fetch(photosync.db, server, key: "a"))
            try await SharedCatalogTests.waitUntilRunning(photosync, while: hostA)
            #expect(try await Self.terminateLockHolders(photosync.db) == 1)

            let hostB = try photosync.start(Self.fetch(photosync.db, server, key: "b"))
            try await SharedCatalogTests.waitUntilRunning(photosync, while: hostB)
            #expect(try await Self.lockHolders(photosync.db) == 1, "B holds the lock")
            gates.open("a2")
            let stopped = await hostA.finish()
            #expect(stopped.status == 75 && stopped.stderr.contains("fetch lock") && stopped.stderr.contains("lost"), "\(stopped)")
            #expect(stopped.stderrLines.last?.contains("another fetch holds it now") == true, "the last line says why: \(stopped)")
            gates.open("b2")
            let finished = await hostB.finish()
            #expect(finished.status == 0, "\(finished)")

            let runs = try await Self.runs(photosync, db: photosync.db)
            #expect(runs.map { $0["outcome"] as? String } == ["succeeded", "failed"], "\(runs)")
            #expect((runs.last?["error"] as? String)?.contains("lost") == true, "\(runs)")
            #expect(runs.last?["pages"] as? Int == 1, "A kept its first page only: \(runs)")
            try await Self.expectRunsNeverOverlap(photosync.db)
            #expect(try jsonArray(try await photosync("list", "--format", "json")).count == 6)
            try await expectInvariants(photosync)
        }
    }

    /// The lock's connection is terminated while the lock is free for the taking: the fetch takes
    /// it again before its next save (a second fetch then exits 75) and finishes.
    @Test func aFetchTakesItsLostLockAgainWhenItIsFree() async throws {
        try await withSandbox(.postgres) { photosync, server in
            let gates = Gates(["a2", "a3"])
            Self.serve(server, gates)
            let fetch = try photosync.start(Self.fetch(photosync.db, server, key: "a"))
            try await SharedCatalogTests.waitUntilRunning(photosync, while: fetch)
            #expect(try await Self.terminateLockHolders(photosync.db) == 1)
            #expect(try await Self.lockHolders(photosync.db) == 0)

            gates.open("a2")
            try await SharedCatalogTests.waitUntilRunning(photosync, pages: 2, while: fetch)
            #expect(try await Self.lockHolders(photosync.db) == 1, "the fetch took its lock again")
            let other = try await photosync.run(Self.fetch(photosync.db, server, key: "b"))
            #expect(other.status == 75 && other.stderr.contains("another fetch is running"), "\(other)")
            gates.open("a3")
            let finished = await fetch.finish()
            #expect(finished.status == 0, "\(finished)")
            let runs = try await Self.runs(photosync, db: photosync.db)
            #expect(runs.map { $0["outcome"] as? String } == ["succeeded"] && runs.first?["pages"] as? Int == 3, "\(runs)")
            try await expectInvariants(photosync)
        }
    }

    /// The server restarts (`pg_ctl restart -m fast`) in the middle of a fetch: every connection
    /// ends, the lock's too; the fetch takes the lock again before its next save and finishes.
    @Test func aFetchGoesOnAfterAServerRestart() async throws {
        let postgres = try await runOnDedicatedThread { Result { try PrivatePostgresServer() } }.get()
        defer { postgres.stop() }
        try await withSandbox { photosync, server in
            let db = postgres.url
            let gates = Gates(["a2", "a3"])
            Self.serve(server, gates)
            let fetch = try photosync.start(Self.fetch(db, server, key: "a"))
            try await Self.waitForPages(1, photosync, db: db, while: fetch)
            try #require(fetch.process.isRunning, "the fetch ended before the restart: \(fetch.stderrSoFar)")
            try await runOnDedicatedThread { Result { try postgres.restart() } }.get()
            #expect(try await Self.lockHolders(db) == 0, "the restart ended the lock")
            gates.open("a2")
            try await Self.waitForPages(2, photosync, db: db, while: fetch)
            #expect(try await Self.lockHolders(db) == 1, "the fetch took its lock again")
            gates.open("a3")
            let finished = await fetch.finish()
            #expect(finished.status == 0, "\(finished)")
            let runs = try await Self.runs(photosync, db: db)
            #expect(runs.map { $0["outcome"] as? String } == ["succeeded"] && runs.first?["pages"] as? Int == 3, "\(runs)")
            let listed = try jsonArray(try await photosync.run(["list", "--format", "json", "--db", db]))
            #expect(listed.count == 6, "\(listed.count) photos")
        }
    }

    /// Waits until the newest run saved `pages` pages (`status` exits 66 until the fetch made the catalog).
    static func waitForPages(_ pages: Int, _ photosync: PhotoSync, db: String, while fetch: PhotoSync.Running) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while (try? await Self.runs(photosync, db: db))?.first?["pages"] as? Int ?? 0 < pages, fetch.process.isRunning,
            ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Each run started after the previous one finished, by the database's own times.
    static func expectRunsNeverOverlap(_ db: String) async throws {
        let rows = try await PostgresTestCatalog.query(
            db, #"SELECT started, finished FROM "FetchRun" ORDER BY started"#)
        let runs = rows.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map { Double($0) ?? -1 } }
        #expect(runs.count == 2, "\(rows)")
        for (previous, next) in zip(runs, runs.dropFirst()) {
            #expect(next[0] >= previous[1], "a run started before the previous one finished: \(rows)")
        }
    }
}
