import Foundation
import PhotoFeed
import Synchronization

/// Runs a list of downloads `parallel` at a time on one thread driving libcurl's multi interface
/// (`CurlDownloads`), handing each finished one to the calling thread, which records it in the
/// catalog at once: a file renamed into place is in the catalog moments later, and one a crash
/// caught in between is merely downloaded again. Recording never holds up the transfers.
///
/// A full disk or the byte budget stops the run: no new transfer starts, those under way end.
struct DownloadRun {
    let jobs: [DownloadJob]
    let parallel: Int
    let download: ImageDownload
    let client: CurlHTTPClient

    /// `record` runs on the calling thread with each batch of finished downloads.
    func run(record: ([(DownloadJob, DownloadOutcome)]) throws -> Void) throws {
        guard !jobs.isEmpty else { return }
        let transfers: CurlDownloads
        do { transfers = try CurlDownloads(client: client) } catch { throw PhotoSyncError.network("\(error)") }
        let shared = Shared(jobs: jobs)
        let box = UncheckedBox(transfers)
        let driver = try WorkerThread(doing: "download images") { [download, parallel] in
            shared.drive(box.value, download, parallel: parallel)
        }
        defer { driver.join() }
        var ended = false
        while !ended {
            shared.wake.wait()
            let (batch, exited) = shared.drain()
            ended = exited
            do {
                try record(batch.map { (jobs[$0.0], $0.1) })
            } catch {
                shared.stop()
                throw error
            }
        }
    }

    /// The jobs the driver starts and the outcomes it hands over.
    private final class Shared: Sendable {
        let jobs: [DownloadJob]
        let wake = DispatchSemaphore(value: 0)
        private let state = Mutex(State())

        struct State {
            var stopped = false
            var finished: [(Int, DownloadOutcome)] = []
            var exited = false
        }

        init(jobs: [DownloadJob]) { self.jobs = jobs }

        /// The driver thread: keeps `parallel` downloads going until the jobs run out or the run stops.
        func drive(_ transfers: CurlDownloads, _ download: ImageDownload, parallel: Int) {
            var (next, underWay) = (0, 0)
            while true {
                while underWay < parallel, next < jobs.count, !isStopped {
                    let index = next
                    (next, underWay) = (next + 1, underWay + 1)
                    download.start(jobs[index], on: transfers) { outcome in
                        underWay -= 1
                        self.hand(index, outcome)
                    }
                }
                guard underWay > 0 else { break }
                transfers.step()
            }
            state.withLock { $0.exited = true }
            wake.signal()
        }

        func stop() { state.withLock { $0.stopped = true } }

        func drain() -> ([(Int, DownloadOutcome)], Bool) {
            state.withLock { state in
                defer { state.finished = [] }
                return (state.finished, state.exited)
            }
        }

        private var isStopped: Bool { state.withLock { $0.stopped } }

        private func hand(_ index: Int, _ outcome: DownloadOutcome) {
            state.withLock { state in
                state.finished.append((index, outcome))
                if outcome.stopsTheRun { state.stopped = true }
            }
            wake.signal()
        }
    }
}

/// Hands the multi driver, made on the calling thread, to the one thread that uses it from then on.
private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

extension DownloadOutcome {
    /// A full disk or a spent budget: starting more transfers would only fail the same way.
    var stopsTheRun: Bool {
        switch self {
        case .stopped, .noSpace: true
        case .restartNeeded: false
        case .downloaded, .unavailable, .failed: false
        }
    }
}
