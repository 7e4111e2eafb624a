import Glibc
import Synchronization

/// Turns a crash that a resource limit explains into one line and a documented status.
///
/// Under `ulimit -v` an allocation that fails traps in the Swift runtime (SIGILL/SIGTRAP), a stack
/// that cannot grow faults (SIGSEGV), and under `ulimit -n` libdispatch traps when it cannot open
/// a descriptor. None of these can be caught as errors. The handler, on its own stack, writes a
/// line prepared at start-up (nothing is allocated in a signal handler) and exits: 74 when no
/// descriptor is left, 71 under an address-space limit. Any other crash is a bug: the previous
/// handler (the Swift runtime's backtracer) gets it as before. The kernel frees the fetch lock
/// with the process, SQLite rolls back the page being saved, and `status` shows the run abandoned.
enum FatalSignals {
    private static let handled = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
    private static let alternateStackSize = 65_536

    /// Set once by `install`, before any handler can run; read only by the handler.
    private nonisolated(unsafe) static var memoryLine: UnsafeMutableBufferPointer<CChar>?
    private nonisolated(unsafe) static var descriptorLine = UnsafeMutableBufferPointer<CChar>(start: nil, count: 0)
    /// The handlers replaced, by signal number.
    private nonisolated(unsafe) static var previous = UnsafeMutableBufferPointer<sigaction>.allocate(capacity: 65)

    static func install() {
        descriptorLine = cLine("photosync: out of file descriptors (ulimit -n): raise the limit\n")
        memoryLine = ResourceLimits.addressSpaceNote.map { cLine("photosync: out of memory: \($0): raise the limit\n") }
        installAlternateStack()
        for signalNumber in handled {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signalNumber in FatalSignals.handle(signalNumber) }
            action.sa_flags = Int32(SA_ONSTACK)
            sigemptyset(&action.sa_mask)
            previous[Int(signalNumber)] = sigaction()
            sigaction(signalNumber, &action, &previous[Int(signalNumber)])
        }
    }

    /// The status of an error already reported on its one line (0: none yet). A crash after it
    /// (an allocation failing again on the way out, under `ulimit -v`) ends with that status and
    /// no second line.
    private nonisolated(unsafe) static var reportedStatus: Int32 = 0

    static func noteReported(status: Int32) { reportedStatus = status }

    /// Async-signal-safe: `fcntl`, `write`, `_exit`, `sigaction` only.
    private static func handle(_ signalNumber: Int32) {
        if reportedStatus != 0 && (memoryLine != nil || ResourceLimits.descriptorsExhausted()) { _exit(reportedStatus) }
        if ResourceLimits.descriptorsExhausted() { emergencyExit(descriptorLine, status: PhotoSyncError.outOfDescriptors("").exitStatus) }
        if let memoryLine { emergencyExit(memoryLine, status: PhotoSyncError.outOfMemory("").exitStatus) }
        // A bug: hand it back; the faulting instruction runs again under the previous handler.
        sigaction(signalNumber, &previous[Int(signalNumber)], nil)
    }

    /// Whether a thread is ending the process: under `ulimit -v` several threads' allocations can
    /// fail at once, and each would write the line (a lock-free atomic: safe in a signal handler).
    private static let ending = Atomic<Bool>(false)

    /// Writes a prepared line to stderr and ends the process at once (no atexit handlers, no flush);
    /// a second thread arriving meanwhile waits for that end.
    static func emergencyExit(_ line: UnsafeMutableBufferPointer<CChar>, status: Int32) -> Never {
        if ending.exchange(true, ordering: .sequentiallyConsistent) {
            while true { pause() }
        }
        if let base = line.baseAddress { _ = write(2, base, line.count) }
        _exit(status)
    }

    /// `text` as bytes that outlive any Swift value (the handler must not touch the heap).
    static func cLine(_ text: String) -> UnsafeMutableBufferPointer<CChar> {
        let bytes = Array(text.utf8CString.dropLast())
        let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }

    /// A stack of its own for the handler: a stack overflow leaves none to run on. One the Swift
    /// runtime's backtracer installed already is kept (its handler may need more room).
    private static func installAlternateStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        guard let memory = malloc(alternateStackSize) else { return }
        var stack = stack_t(ss_sp: memory, ss_flags: 0, ss_size: alternateStackSize)
        sigaltstack(&stack, nil)
    }
}
