import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// `--max-time` (`max_time`, `PHOTOSYNC_MAX_TIME`) bounds a whole fetch, where `--timeout` bounds
/// one attempt (an endless 1 byte/s body with `--timeout 3` took 18 s over its retries).
@Suite("--max-time", .onTestThreads)
struct TimeLimitTests {
    static let pages = (1...3).map { number in
        FeedJSON.page(number, of: 3, perPage: 2, total: 6,
                      photos: [FeedJSON.photo("\(number)1", owner: "Owner \(number)"), FeedJSON.photo("\(number)2", owner: "Ana Lima")])
    }

    /// Page `slow` answered as `answer` the first time it is asked for, every page properly after.
    static func server(slow: Int, _ answer: ScriptedServer.Answer) throws -> ScriptedServer {
        try ScriptedServer { page, attempt in
            guard (1...3).contains(page) else { return .http(404) }
            return page == slow && attempt == 1 ? answer : .json(pages[page - 1])
        }
    }

    /// Runs a fetch with `--max-time seconds`, checking it ends by itself, not before the limit,
    /// with 75 and one line; then that the run is recorded as failed and a next fetch completes.
    func expectStopsAtLimit(
        _ server: ScriptedServer, seconds: Int, extra: [String] = [], savedPages: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await withSandbox { sandbox in
            let started = ContinuousClock.now
            let outcome = try await sandbox.runLimited("", ["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k",
                                                            "--per-page", "2", "--max-time", "\(seconds)"] + extra)
            let elapsed = ContinuousClock.now - started
            let result = outcome.result
            #expect(!outcome.hung && !result.signalled, "\(result)", sourceLocation: sourceLocation)
            #expect(elapsed >= .seconds(seconds), "it stopped before its limit, after \(elapsed)", sourceLocation: sourceLocation)
            #expect(result.status == 75, "\(result)", sourceLocation: sourceLocation)
            #expect(result.stderr == "photosync: stopped at the time limit of \(seconds) s (--max-time or max_time): "
                    + "\(savedPages) page(s) saved; run again to continue\n", "\(result)", sourceLocation: sourceLocation)
            let expected = Set(["11", "12", "21", "22"].prefix(2 * savedPages))
            if savedPages > 0 { #expect(try await sandbox.ids() == expected, sourceLocation: sourceLocation) }
            let runs = try await sandbox("status", "--format", "json").object()["runs"] as? [[String: Any]] ?? []
            #expect(runs.first?["outcome"] as? String == "failed", "\(runs)", sourceLocation: sourceLocation)
            #expect((runs.first?["error"] as? String)?.contains("time limit of \(seconds) s") == true, "\(runs)", sourceLocation: sourceLocation)
            #expect(runs.first?["pages"] as? Int == savedPages, "\(runs)", sourceLocation: sourceLocation)
            let next = try await sandbox("fetch", "--url", server.url, "--api-key", "k", "--per-page", "2", "--quiet")
            #expect(next.status == 0, "the lock is free and the next fetch completes: \(next)", sourceLocation: sourceLocation)
            #expect(try await sandbox.ids() == ["11", "12", "21", "22", "31", "32"], sourceLocation: sourceLocation)
        }
    }

    /// Page 2 never answers (the attempt's own timeout is 600 s): the request is abandoned at the
    /// limit, page 1 stays.
    @Test func silentServerStopsAtTheLimitKeepingPageOne() async throws {
        let server = try Self.server(slow: 2, .silence)
        defer { server.stop() }
        try await expectStopsAtLimit(server, seconds: 3, savedPages: 1)
    }

    /// Page 1 trickles one byte a second forever, with `--timeout 3` and retries: the whole fetch
    /// still ends at its limit.
    @Test func endlessTrickleStopsAtTheLimit() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{".utf8)
        let server = try Self.server(slow: 1, .trickle(head: head, chunk: Array(" ".utf8), interval: 1))
        defer { server.stop() }
        try await expectStopsAtLimit(server, seconds: 4, extra: ["--timeout", "600"], savedPages: 0)
    }

    /// Waiting for the lock (`--wait`) counts: the second fetch gives up at its limit (the file
    /// lock, and a PostgreSQL catalog's advisory lock).
    @Test(arguments: [false, true]) func waitingForTheLockCounts(postgres: Bool) async throws {
        let server = try Self.server(slow: 2, .silence)
        defer { server.stop() }
        try await withSandbox(postgres: postgres) { sandbox in
            let holder = try sandbox.start(["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k", "--per-page", "2"])
            #expect(await eventually(within: 60) { server.requestedPages.contains(2) })
            let waiter = try await sandbox.runLimited("", ["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k",
                                                           "--per-page", "2", "--wait", "--max-time", "2"])
            holder.signal(SIGTERM)
            _ = await holder.finish()
            #expect(!waiter.hung && waiter.result.status == 75, "\(waiter.result)")
            #expect(waiter.result.stderr.contains("stopped at the time limit of 2 s"), "\(waiter.result)")
        }
    }

    @Test(arguments: ["-1", "0", "abc", "nan", "inf", "1e300"])
    func badValuesAreUsageErrors(value: String) async throws {
        try await withSandbox { sandbox in
            let closed = try closedLoopbackURL()
            let result = try await sandbox("fetch", "--url", closed, "--api-key", "k", "--max-time", value)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains("--max-time"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.db), "nothing created")
        }
    }

    @Test func environmentAndConfigAreCheckedAndShown() async throws {
        try await withSandbox { sandbox in
            let closed = try closedLoopbackURL()
            let bad = try await sandbox("fetch", "--url", closed, "--api-key", "k", environment: ["PHOTOSYNC_MAX_TIME": "soon"])
            #expect(bad.status == 78 && bad.stderrLines.count == 1 && bad.stderr.contains("PHOTOSYNC_MAX_TIME"), "\(bad)")
            let config = sandbox.directory + "/config.yaml"
            try "max_time: 0\n".write(toFile: config, atomically: true, encoding: .utf8)
            let zero = try await sandbox("fetch", "--config", config, "--url", closed, "--api-key", "k")
            #expect(zero.status == 78 && zero.stderr.contains("max_time: must be greater than 0"), "\(zero)")
            try "max_time: 600\n".write(toFile: config, atomically: true, encoding: .utf8)
            let shown = try await sandbox("config", "--config", config, "--format", "json").object()
            let entry = shown["max_time"] as? [String: Any]
            #expect(entry?["value"] as? String == "600" && entry?["source"] as? String == "file \(config)", "\(shown)")
            let fromEnvironment = try await sandbox("config", "--format", "json", environment: ["PHOTOSYNC_MAX_TIME": "90"]).object()
            #expect((fromEnvironment["max_time"] as? [String: Any])?["source"] as? String == "env PHOTOSYNC_MAX_TIME", "\(fromEnvironment)")
        }
    }
}
