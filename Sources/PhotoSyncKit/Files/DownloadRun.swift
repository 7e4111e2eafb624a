import Foundation
import Synchronization

/// Runs a list of downloads `parallel` at a time on worker threads, handing each finished one to
/// the calling thread, which records it in the catalog at once: a file renamed into place is in
/// the catalog moments later, and one a crash caught in between is merely downloaded again.
///
/// A full disk or the byte budget stops the run: no new transfer starts, those under way end.
struct DownloadRun {
    let jobs: [DownloadJob]
    let parallel: Int
    let download: ImageDownload

    /// `record` runs on the calling thread with each batch of finished downloads.
    func run(record: ([(DownloadJob, DownloadOutcome)]) throws -> Void) throws {
        guard !jobs.isEmpty else { return }
        let shared = Shared(jobs: jobs)
        let workers = try (0..<min(parallel, jobs.count)).map { _ in
            try WorkerThread(doing: "download images") { [download] in shared.work(download) }
        }
        defer { workers.forEach { $0.join() } }
        var ended = 0
        while ended < workers.count {
            shared.wake.wait()
            let (batch, exits) = shared.drain()
            ended += exits
            do {
                try record(batch.map { (jobs[$0.0], $0.1) })
            } catch {
                shared.stop()
                throw error
            }
        }
    }

    /// The queue the workers take jobs from and put outcomes in.
    private final class Shared: Sendable {
        let jobs: [DownloadJob]
        let wake = DispatchSemaphore(value: 0)
        private let state = Mutex(State())

        struct State {
            var next = 0
            var stopped = false
            var finished: [(Int, DownloadOutcome)] = []
            var exits = 0
        }

        init(jobs: [DownloadJob]) { self.jobs = jobs }

        func work(_ download: ImageDownload) {
            while let index = take() {
                let outcome = download.run(jobs[index])
                state.withLock { state in
                    state.finished.append((index, outcome))
                    if outcome.stopsTheRun { state.stopped = true }
                }
                wake.signal()
            }
            state.withLock { $0.exits += 1 }
            wake.signal()
        }

        func stop() { state.withLock { $0.stopped = true } }

        func drain() -> ([(Int, DownloadOutcome)], Int) {
            state.withLock { state in
                defer { (state.finished, state.exits) = ([], 0) }
                return (state.finished, state.exits)
            }
        }

        private func take() -> Int? {
            state.withLock { state in
                guard !state.stopped, state.next < jobs.count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }
    }
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
