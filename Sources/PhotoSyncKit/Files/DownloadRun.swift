import Foundation
import PhotoFeed
import Synchronization

/// Runs a list of downloads `parallel` at a time on one thread driving libcurl's multi interface
/// (`CurlDownloads`), handing each finished one to the calling thread, which makes the verified
/// files final (`FileKeeper`: fsync, rename, in batches) and records them in the catalog at once:
/// a file renamed into place is in the catalog moments later, and one a crash caught in between is
/// merely downloaded again. Neither fsync nor recording holds up the transfers; at most `backlog`
/// verified files wait to be kept (each holds a descriptor) before new transfers wait in turn.
///
/// A full disk or the byte budget stops the run: no new transfer starts, those under way end.
struct DownloadRun {
    let jobs: [DownloadJob]
    let parallel: Int
    let download: ImageDownload
    let client: CurlHTTPClient
    var backlog = 256

    /// `record` runs on the calling thread with each batch of finished downloads.
    func run(record: ([(DownloadJob, DownloadOutcome)]) throws -> Void) throws {
        guard !jobs.isEmpty else { return }
        let transfers: CurlDownloads
        do { transfers = try CurlDownloads(client: client) } catch { throw PhotoSyncError.network("\(error)") }
        let shared = Shared(jobs: jobs, backlog: backlog)
        let box = UncheckedBox(transfers)
        let driver = try WorkerThread(doing: "download images") { [download, parallel] in
            shared.drive(box.value, download, parallel: parallel)
        }
        var (ended, failure): (Bool, (any Error)?) = (false, nil)
        while !ended, failure == nil {
            shared.wake.wait()
            let (batch, exited) = shared.drain()
            ended = exited
            do {
                try record(keep(batch, shared))
            } catch {
                shared.stop()
                failure = error
            }
        }
        driver.join()
        if let failure {
            FileKeeper.abandon(shared.drain().0.compactMap(\.1.verified))
            throw failure
        }
    }

    /// The batch's outcomes, its verified files made final first (and the driver told it may go on).
    private func keep(_ batch: [(Int, TransferEnd)], _ shared: Shared) -> [(DownloadJob, DownloadOutcome)] {
        let verified = batch.compactMap { index, end in end.verified.map { (index, $0) } }
        let kept = FileKeeper.keep(verified.map(\.1), in: download.folder)
        shared.kept(verified.count, stopping: kept.contains(where: \.stopsTheRun))
        var outcomes = Dictionary(zip(verified.map(\.0), kept), uniquingKeysWith: { first, _ in first })
        for case (let index, .settled(let outcome)) in batch { outcomes[index] = outcome }
        return batch.map { index, _ in (jobs[index], outcomes[index]!) }
    }

    /// The jobs the driver starts and the outcomes it hands over.
    private final class Shared: Sendable {
        let jobs: [DownloadJob]
        let backlog: Int
        let wake = DispatchSemaphore(value: 0)
        /// Signalled when verified files were kept (room in the backlog) or the run stopped.
        let room = DispatchSemaphore(value: 0)
        private let state = Mutex(State())

        struct State {
            var stopped = false
            var finished: [(Int, TransferEnd)] = []
            /// Verified files handed over and not kept yet.
            var waiting = 0
            var exited = false
        }

        init(jobs: [DownloadJob], backlog: Int) { (self.jobs, self.backlog) = (jobs, max(1, backlog)) }

        /// The driver thread: keeps `parallel` downloads going until the jobs run out or the run stops.
        func drive(_ transfers: CurlDownloads, _ download: ImageDownload, parallel: Int) {
            var (next, underWay) = (0, 0)
            while true {
                while underWay < parallel, next < jobs.count, mayStart {
                    let index = next
                    (next, underWay) = (next + 1, underWay + 1)
                    download.start(jobs[index], on: transfers) { end in
                        underWay -= 1
                        self.hand(index, end)
                    }
                }
                if underWay > 0 {
                    transfers.step()
                } else if next < jobs.count, !isStopped {
                    room.wait()
                } else {
                    break
                }
            }
            state.withLock { $0.exited = true }
            wake.signal()
        }

        func stop() {
            state.withLock { $0.stopped = true }
            room.signal()
        }

        func drain() -> ([(Int, TransferEnd)], Bool) {
            state.withLock { state in
                defer { state.finished = [] }
                return (state.finished, state.exited)
            }
        }

        /// `count` verified files were kept; `stopping` when one of them found the disk full.
        func kept(_ count: Int, stopping: Bool) {
            guard count > 0 else { return }
            state.withLock { state in
                state.waiting -= count
                if stopping { state.stopped = true }
            }
            room.signal()
        }

        private var isStopped: Bool { state.withLock { $0.stopped } }
        private var mayStart: Bool { state.withLock { !$0.stopped && $0.waiting < backlog } }

        private func hand(_ index: Int, _ end: TransferEnd) {
            state.withLock { state in
                state.finished.append((index, end))
                switch end {
                case .verified: state.waiting += 1
                case .settled(let outcome): if outcome.stopsTheRun { state.stopped = true }
                }
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

extension TransferEnd {
    var verified: VerifiedTemporary? { if case .verified(let file) = self { file } else { nil } }
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
