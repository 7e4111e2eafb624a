import Foundation
import Glibc
import PhotoFeed
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// SIGINT/SIGTERM while a request hangs: the request is abandoned, not waited out.
///
/// No real signal reaches a fetch here: each test gives its fetch a watch of its own and records a
/// signal on it, which is what the process's signal handlers do for the process's watch. So these
/// tests run beside every other suite, whose fetches never see their signals.
@Suite("Interrupting a blocked fetch", .removesTemporaryFiles)
struct FetchInterruptionTests {
    /// A server that never answers, a 300 s timeout and 3 retries: without the abort the fetch
    /// would take 20 minutes, which the 1-minute limit does not survive. (The abort itself takes
    /// a second at most: libcurl's progress callback polls the watch once a second while nothing
    /// arrives.)
    @Test(.timeLimit(.minutes(1)))
    func signalAbortsTheRequestAndRecordsTheRunAsInterrupted() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        var settings = FetchSettings(
            endpoint: server.baseURL + "/rest/", apiKey: "k", pages: nil, maxPages: 10, perPage: 10,
            mergePolicy: .objectTrump, timeout: 300, retries: 3, dryRun: false, waitForLock: false)
        settings.full = true
        let watch = InterruptionWatch()
        record(SIGTERM, on: watch, whenConnectedTo: server)

        let status = await runOnDedicatedThread { [settings] () -> Int32 in
            do {
                _ = try Catalog(path: database).fetch(settings, interruption: watch, progress: { _ in })
                return 0
            } catch {
                return (error as? PhotoSyncError)?.exitStatus ?? -1
            }
        }

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
            mergePolicy: .objectTrump, timeout: 300, retries: 0, dryRun: false, waitForLock: false)
        let watch = InterruptionWatch()
        let source = FeedSource(settings: settings, interruption: watch)
        record(SIGINT, on: watch, whenConnectedTo: server)

        let result = await runOnDedicatedThread {
            Result { () throws(PhotoSyncError) -> FeedPage in try source.page(1) }
        }

        #expect(throws: PhotoSyncError.interrupted(signal: SIGINT)) { try result.get() }
    }

    @Test func aSignalRecordedOnOneWatchReachesNoOther() {
        let watch = InterruptionWatch()
        watch.record(SIGINT)
        #expect(watch.signal == SIGINT)
        #expect(InterruptionWatch().signal == nil)
        #expect(InterruptionWatch.process.signal == nil)
    }

    /// The one test that touches the process's watch and its handlers: a real SIGTERM is recorded
    /// while a command listens, and afterwards the signal has its default action back and the
    /// watch is clear for the next run.
    @Test func theProcessWatchHearsSignalsOnlyWhileListening() {
        let heard = InterruptionWatch.listeningForSignals { watch in
            raise(SIGTERM)
            return watch.signal
        }
        #expect(heard == SIGTERM)
        #expect(InterruptionWatch.process.signal == nil)
        var action = sigaction()
        sigaction(SIGTERM, nil, &action)
        #expect(action.__sigaction_handler.sa_handler == nil, "SIGTERM's handler is still installed")
    }

    /// Records `signalNumber` on `watch` once `server` has a connection (so the request is really
    /// in flight), however long the machine takes to get there.
    private func record(_ signalNumber: Int32, on watch: InterruptionWatch, whenConnectedTo server: RawSocketServer) {
        Thread {
            for _ in 0..<2_000 where server.connectionCount == 0 { Thread.sleep(forTimeInterval: 0.02) }
            watch.record(signalNumber)
        }.start()
    }
}
