import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into a flag the fetch loop checks between pages, so the page being
/// saved completes (or rolls back) and the run is recorded as interrupted.
///
/// The signal is published process-wide (`InterruptionWatch.pending`) while a watch is alive, so an
/// HTTP request in flight, which has no handle on the watch, can be abandoned at once.
///
/// A plain `sigaction` handler storing into a lock-free atomic (async-signal-safe), not a dispatch
/// signal source: a process can start with these signals ignored or blocked (both are inherited
/// across exec, e.g. from a shell's background job or a parent running libdispatch), and a
/// handler of our own plus an unblocked main thread receive them whatever the parent did.
final class InterruptionWatch {
    /// The last signal received while a watch was alive (0: none). Written by the signal handler.
    private static let received = Atomic<Int32>(0)
    private static let liveWatches = Mutex(0)
    private static let handledSignals = [SIGINT, SIGTERM]

    /// The signal received by a live watch, if any: what `FeedSource` polls to cancel a request.
    /// nil again once the last watch is gone, so a later run starts clean.
    static var pending: Int32? {
        let value = received.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    init() {
        Self.liveWatches.withLock { count in
            if count == 0 {
                Self.received.store(0, ordering: .sequentiallyConsistent)
                Self.install()
            }
            count += 1
        }
    }

    deinit {
        Self.liveWatches.withLock { count in
            count -= 1
            guard count == 0 else { return }
            for signalNumber in Self.handledSignals { Glibc.signal(signalNumber, SIG_DFL) }
            Self.received.store(0, ordering: .sequentiallyConsistent)
        }
    }

    /// Notes `signalNumber` as received: what the signal handler does (tests call it to stand in
    /// for a real signal).
    func record(_ signalNumber: Int32) {
        Self.received.store(signalNumber, ordering: .sequentiallyConsistent)
    }

    /// The signal received, if any.
    var signal: Int32? { Self.pending }

    private static func install() {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in handledSignals {
            sigaddset(&set, signalNumber)
            Glibc.signal(signalNumber) { signalNumber in
                InterruptionWatch.received.store(signalNumber, ordering: .sequentiallyConsistent)
            }
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
