import Dispatch
import Foundation
import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a flag the fetch loop checks between pages, so the page being
/// saved completes (or rolls back) and the run is recorded as interrupted.
///
/// The signal is also published process-wide (`InterruptionWatch.pending`) while a watch is alive,
/// so an HTTP request in flight, which has no handle on the watch, can be abandoned at once.
final class InterruptionWatch {
    private let received = Mutex<Int32>(0)
    private let sources: [any DispatchSourceSignal]

    /// Live watches and the last signal any of them received (0: none).
    private static let shared = Mutex((watches: 0, signal: Int32(0)))

    /// The signal received by a live watch, if any: what `FeedSource` polls to cancel a request.
    /// nil again once the last watch is gone, so a later run starts clean.
    static var pending: Int32? {
        let value = shared.withLock { $0.signal }
        return value == 0 ? nil : value
    }

    init() {
        Self.shared.withLock { state in
            if state.watches == 0 { state.signal = 0 }
            state.watches += 1
        }
        Self.unblockOnThisThread([SIGINT, SIGTERM])
        let queue = DispatchQueue(label: "photosync.signals")
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            Glibc.signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for (source, signalNumber) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [weak self] in self?.record(signalNumber) }
            source.resume()
        }
    }

    deinit {
        for source in sources { source.cancel() }
        Glibc.signal(SIGINT, SIG_DFL)
        Glibc.signal(SIGTERM, SIG_DFL)
        Self.shared.withLock { state in
            state.watches -= 1
            if state.watches == 0 { state.signal = 0 }
        }
    }

    /// Notes `signalNumber` as received, here and in `pending`: what the signal handler does
    /// (tests call it to stand in for a real signal).
    func record(_ signalNumber: Int32) {
        received.withLock { $0 = signalNumber }
        Self.shared.withLock { $0.signal = signalNumber }
    }

    /// A process can start with these signals blocked (its parent's mask is inherited across exec,
    /// and a parent running libdispatch blocks them on its threads); blocked everywhere, they would
    /// never reach the handler.
    private static func unblockOnThisThread(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in signals { sigaddset(&set, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = received.withLock { $0 }
        return value == 0 ? nil : value
    }
}
