import Glibc

/// A thread for one piece of work, started with `pthread_create` so that a thread that cannot be
/// started (`ulimit -v`, too many threads) is an error the caller reports, not libdispatch's
/// endless wait for one.
final class WorkerThread: Sendable {
    private let thread: pthread_t

    /// Runs `body` on a new thread; `work` names it in the error (`download page 2`).
    init(doing work: String, _ body: @escaping @Sendable () -> Void) throws(PhotoSyncError) {
        let box = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let failure = pthread_create(&thread, nil, { box in
            let work = Unmanaged<Work>.fromOpaque(box!).takeRetainedValue()
            work.body()
            return nil
        }, box)
        guard failure == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            let note = ResourceLimits.addressSpaceNote.map { ": \($0): raise the limit" } ?? ""
            throw .outOfMemory("out of memory: cannot start a thread to \(work) (\(String(cString: strerror(failure))))\(note)")
        }
        self.thread = thread
    }

    /// Waits until the thread has ended, and with it everything `body` held (a catalog's
    /// connections: one still open when the process exits leaves the `-wal` file behind).
    func join() {
        pthread_join(thread, nil)
    }

    /// A thread nobody joins (its fetch failed first) is left to end by itself.
    func detach() {
        pthread_detach(thread)
    }

    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
