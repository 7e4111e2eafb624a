import Glibc
import Synchronization

/// The signal that asked a fetch to stop: the fetch loop checks it between pages, so the page being
/// saved completes (or rolls back) and the run is recorded as interrupted, and the HTTP request in
/// flight polls it to be abandoned at once.
///
/// A fetch is given its watch. The process has one, ``process``, which SIGINT and SIGTERM feed
/// while a command listens for them (``listeningForSignals(_:)``); a test makes its own and
/// records a signal on it, so fetches running side by side never see each other's signals.
final class InterruptionWatch: Sendable {
    /// The last signal recorded (0: none). Lock-free, so a signal handler may store into it.
    private let received = Atomic<Int32>(0)

    init() {}

    /// The process's watch: what the signal handlers feed, and what the watchdog looks at.
    static let process = InterruptionWatch()

    /// Notes `signalNumber` as received: what the signal handler does for ``process``.
    func record(_ signalNumber: Int32) {
        received.store(signalNumber, ordering: .sequentiallyConsistent)
    }

    /// The signal received, if any.
    var signal: Int32? {
        let value = received.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    fileprivate func clear() {
        received.store(0, ordering: .sequentiallyConsistent)
    }
}

extension InterruptionWatch {
    private static let listeners = Mutex(0)
    private static let handledSignals = [SIGINT, SIGTERM]

    /// Runs `body` with SIGINT and SIGTERM recorded on ``process`` instead of ending the process.
    /// The first listener starts from a clear watch; when the last one returns, the signals get
    /// their default action back and the watch is cleared, so a later run starts clean.
    ///
    /// A plain `sigaction` handler storing into a lock-free atomic (async-signal-safe), not a
    /// dispatch signal source: a process can start with these signals ignored or blocked (both are
    /// inherited across exec, e.g. from a shell's background job or a parent running libdispatch),
    /// and a handler of our own plus an unblocked main thread receive them whatever the parent did.
    static func listeningForSignals<T>(_ body: (InterruptionWatch) throws -> T) rethrows -> T {
        listeners.withLock { count in
            if count == 0 {
                process.clear()
                installHandlers()
            }
            count += 1
        }
        defer {
            listeners.withLock { count in
                count -= 1
                guard count == 0 else { return }
                for signalNumber in handledSignals { Glibc.signal(signalNumber, SIG_DFL) }
                process.clear()
            }
        }
        return try body(process)
    }

    private static func installHandlers() {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in handledSignals {
            sigaddset(&set, signalNumber)
            Glibc.signal(signalNumber) { signalNumber in InterruptionWatch.process.record(signalNumber) }
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
