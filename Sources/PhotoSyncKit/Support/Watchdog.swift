import Glibc
import Synchronization

/// A thread started with the process that ends it when it can no longer end itself.
///
/// libdispatch (which GRDB and Foundation use) retries a thread it cannot start once a second,
/// forever: under `ulimit -v` a fetch used to hang there, ignoring SIGINT and SIGTERM and holding
/// the lock. Every second the watchdog tries to start a thread like libdispatch's; after three
/// failures in a row it prints one line and exits 71. It also ends a fetch that overran its
/// `--max-time` by more than `grace` (stuck where the deadline is not checked) with 75, and a run
/// still going `grace` after SIGINT or SIGTERM with 128 + the signal. Each exit writes a line
/// prepared beforehand and calls `_exit`: the kernel frees the lock, SQLite rolls back an
/// unfinished page, and `status` shows the run abandoned.
enum Watchdog {
    static let grace: Duration = .seconds(30)
    private static let strikesToStop = 3

    private struct Deadline {
        var end: ContinuousClock.Instant
        var line: String
    }

    private static let deadline = Mutex<Deadline?>(nil)
    private nonisolated(unsafe) static var threadLine = UnsafeMutableBufferPointer<CChar>(start: nil, count: 0)

    /// Starts the watchdog; a process that cannot even start it stops here (71).
    static func start() {
        let note = ResourceLimits.addressSpaceNote.map { ": \($0)" } ?? " (too many threads or processes, or out of memory)"
        threadLine = FatalSignals.cLine("photosync: out of memory: cannot start a thread\(note): raise the limit\n")
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        pthread_attr_init(attributes)
        defer {
            pthread_attr_destroy(attributes)
            attributes.deallocate()
        }
        pthread_attr_setstacksize(attributes, 262_144)
        pthread_attr_setdetachstate(attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        guard pthread_create(&thread, attributes, { _ in Watchdog.watch() }, nil) == 0 else {
            FatalSignals.emergencyExit(threadLine, status: PhotoSyncError.outOfMemory("").exitStatus)
        }
    }

    /// Ends the process with `error`'s line and status once `fetchDeadline` is `grace` behind.
    static func enforce(_ fetchDeadline: FetchDeadline, with error: PhotoSyncError) {
        let line = "photosync: \(error.message) (the fetch did not stop by itself)\n"
        deadline.withLock { $0 = Deadline(end: fetchDeadline.end + grace, line: line) }
    }

    private static func watch() -> Never {
        var strikes = 0
        var signalSince: ContinuousClock.Instant?
        while true {
            sleep(1)
            strikes = canStartThread() ? 0 : strikes + 1
            if strikes >= strikesToStop { FatalSignals.emergencyExit(threadLine, status: PhotoSyncError.outOfMemory("").exitStatus) }
            if let overrun = deadline.withLock({ $0 }), ContinuousClock.now >= overrun.end {
                FatalSignals.emergencyExit(FatalSignals.cLine(overrun.line), status: PhotoSyncError.timeLimit(seconds: 0).exitStatus)
            }
            let signal = InterruptionWatch.process.signal
            signalSince = signal == nil ? nil : signalSince ?? .now
            if let signalSince, let signalNumber = signal, ContinuousClock.now - signalSince >= grace {
                let line = FatalSignals.cLine("photosync: interrupted by signal \(signalNumber) (the fetch did not stop by itself)\n")
                FatalSignals.emergencyExit(line, status: 128 + signalNumber)
            }
        }
    }

    /// Whether a thread with default attributes (libdispatch's) can be started now.
    private static func canStartThread() -> Bool {
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { _ in nil }, nil) == 0 else { return false }
        pthread_join(thread, nil)
        return true
    }
}
