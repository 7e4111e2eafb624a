import Foundation
import Glibc
import PhotoFeed
import PhotoSyncTestSupport
import Synchronization
import Testing
@testable import PhotoSyncKit

/// SIGINT/SIGTERM while a request hangs: the request is abandoned, not waited out.
///
/// No real signal reaches a fetch here: each test gives its fetch a watch of its own and records a
/// signal on it, which is what the process's signal handlers do for the process's watch. So these
/// tests run beside every other suite, whose fetches never see their signals.
@Suite("Interrupting a blocked fetch", .removesTemporaryFiles, .onTestThreads)
struct FetchInterruptionTests {
    /// A server that never answers and a 300 s timeout: the request is abandoned within seconds
    /// of the signal, not waited out. That is measured on the fetch's own thread, from the signal to
    /// the fetch's return, against a tenth of the timeout. The test's wall time is no measure: in
    /// `make test` every suite runs at once, and a test waits for Swift's two cooperative threads,
    /// which other tests' work holds for minutes on a loaded machine (seen: an abort after 0.5 s
    /// in a test that took 285 s). The time limit is only a backstop for a hang.
    @Test(.timeLimit(.minutes(5)))
    func signalAbortsTheRequestAndRecordsTheRunAsInterrupted() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let database = try makeTemporaryDirectory() + "/c.sqlite"
        var settings = FetchSettings(
            endpoint: server.baseURL + "/rest/", apiKey: "k", pages: nil, maxPages: 10, perPage: 10,
            mergePolicy: .objectTrump, timeout: 300, retries: 0, dryRun: false, waitForLock: false)
        settings.full = true
        let watch = InterruptionWatch()
        let signalled = record(SIGTERM, on: watch, whenConnectedTo: server)

        let (status, afterSignal) = await runOnDedicatedThread { [settings] () -> (Int32, Duration?) in
            let status: Int32
            do {
                _ = try Catalog(path: database).fetch(settings, interruption: watch, progress: { _ in })
                status = 0
            } catch {
                status = (error as? PhotoSyncError)?.exitStatus ?? -1
            }
            return (status, signalled.elapsed)
        }

        #expect(status == 128 + SIGTERM)
        let waited = try #require(afterSignal, "the signal was never recorded")
        #expect(waited < .seconds(30), "the request was waited out (\(waited) after the signal), not abandoned")
        #expect(server.connectionCount == 1)
        let runs = try Catalog(path: database).status(recentRuns: 5).runs
        #expect(runs.map(\.outcome) == [.interrupted])
    }

    @Test(.timeLimit(.minutes(5)))
    func feedSourceTurnsACancelledRequestIntoInterrupted() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let settings = FetchSettings(
            endpoint: server.baseURL + "/rest/", apiKey: "k", pages: 1, maxPages: 1, perPage: 10,
            mergePolicy: .objectTrump, timeout: 300, retries: 0, dryRun: false, waitForLock: false)
        let watch = InterruptionWatch()
        let source = FeedSource(settings: settings, interruption: watch)
        let signalled = record(SIGINT, on: watch, whenConnectedTo: server)

        let (result, afterSignal) = await runOnDedicatedThread {
            (Result { () throws(PhotoSyncError) -> FeedPage in try source.page(1) }, signalled.elapsed)
        }

        #expect(throws: PhotoSyncError.interrupted(signal: SIGINT)) { try result.get() }
        #expect(try #require(afterSignal) < .seconds(30))
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
    /// in flight), however long the machine takes to get there; the returned box holds the moment.
    private func record(
        _ signalNumber: Int32, on watch: InterruptionWatch, whenConnectedTo server: RawSocketServer
    ) -> Moment {
        let signalled = Moment()
        Thread {
            for _ in 0..<2_000 where server.connectionCount == 0 { Thread.sleep(forTimeInterval: 0.02) }
            signalled.mark()
            watch.record(signalNumber)
        }.start()
        return signalled
    }
}

/// When something happened, for the time measured from it on another thread.
private final class Moment: Sendable {
    private let instant = Mutex<ContinuousClock.Instant?>(nil)
    func mark() { instant.withLock { $0 = .now } }
    /// The time since `mark()`, or nil before it.
    var elapsed: Duration? { instant.withLock { $0 }.map { ContinuousClock.now - $0 } }
}
