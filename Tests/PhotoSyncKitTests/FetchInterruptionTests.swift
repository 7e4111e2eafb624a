import ArgumentParser
import Foundation
import Glibc
import PhotoFeed
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// SIGINT/SIGTERM while a request hangs: the request is abandoned, not waited out.
///
/// No real signal is sent to the test process: a second live `InterruptionWatch` records one,
/// which is what its signal handler does, and the fetch's own request polls `InterruptionWatch.pending`.
@Suite("Interrupting a blocked fetch", .serialized, .removesTemporaryFiles)
struct FetchInterruptionTests {
    /// A server that never answers, a 60 s timeout and 3 retries: without the abort the fetch
    /// would take 4 minutes, which the 2-minute limit does not survive. (In process, with the
    /// server now living as long as the test, the abort has been seen after 63–71 s: a 1-minute
    /// limit failed one run in three. Why it is that slow in process, while the binary stops at
    /// once on SIGTERM, is left open in issue 29.)
    @Test(.timeLimit(.minutes(2)))
    func signalAbortsTheRequestAndRecordsTheRunAsInterrupted() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let directory = try makeTemporaryDirectory()
        let database = directory + "/c.sqlite"
        let config = try writeTemporaryFile("config.yaml", "")
        let arguments = [
            "--db", database, "--config", config, "fetch", "--url", server.baseURL + "/rest/", "--api-key", "k",
            "--timeout", "60", "--retries", "3", "--quiet",
        ]
        let watch = InterruptionWatch()
        record(SIGTERM, on: watch, whenConnectedTo: server)

        let status = await runOnDedicatedThread { () -> Int32 in
            do {
                var command = try PhotoSyncCommand.parseAsRoot(arguments)
                try command.run()
                return 0
            } catch {
                return PhotoSyncCommand.exitCode(for: error).rawValue
            }
        }
        withExtendedLifetime(watch) {}

        #expect(status == 128 + SIGTERM)
        #expect(server.connectionCount == 1)
        let runs = try Catalog(path: database).status(recentRuns: 5).runs
        #expect(runs.map(\.outcome) == [.interrupted])
    }

    @Test(.timeLimit(.minutes(1)))
    func feedSourceTurnsACancelledRequestIntoInterrupted() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let settings = FetchSettings(
            endpoint: server.baseURL + "/rest/", apiKey: "k", pages: 1, maxPages: 1, perPage: 10,
            mergePolicy: .objectTrump, timeout: 60, retries: 0, dryRun: false, waitForLock: false)
        let source = FeedSource(settings: settings)
        let watch = InterruptionWatch()
        record(SIGINT, on: watch, whenConnectedTo: server)

        let result = await runOnDedicatedThread {
            Result { () throws(PhotoSyncError) -> FeedPage in try source.page(1) }
        }
        withExtendedLifetime(watch) {}

        #expect(throws: PhotoSyncError.interrupted(signal: SIGINT)) { try result.get() }
    }

    @Test func pendingIsClearedWhenTheLastWatchGoes() {
        do {
            let watch = InterruptionWatch()
            watch.record(SIGINT)
            #expect(InterruptionWatch.pending == SIGINT)
            #expect(watch.signal == SIGINT)
        }
        #expect(InterruptionWatch.pending == nil)
        let fresh = InterruptionWatch()
        #expect(fresh.signal == nil)
        #expect(InterruptionWatch.pending == nil)
        withExtendedLifetime(fresh) {}
    }

    /// Stands in for `signalNumber` arriving `delay` seconds from now.
    /// Records the signal once `server` has a connection (so the request is really in flight),
    /// however long the machine takes to get there.
    private func record(_ signalNumber: Int32, on watch: InterruptionWatch, whenConnectedTo server: RawSocketServer) {
        let watch = UncheckedBox(watch)
        let server = UncheckedBox(server)
        Thread {
            for _ in 0..<2_000 where server.value.connectionCount == 0 { Thread.sleep(forTimeInterval: 0.02) }
            watch.value.record(signalNumber)
        }.start()
    }
}

/// `InterruptionWatch.record` only takes a lock, so handing the watch to another thread is safe.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
