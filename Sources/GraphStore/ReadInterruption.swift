import Synchronization

/// A container's switch for ending its reads (``PersistentContainer/interruptReads()``): once
/// thrown, reads running now stop and reads begun later fail at once. It stays thrown: it is for
/// a process that is stopping.
final class ReadInterruption: Sendable {
    private let requested = Atomic<Bool>(false)
    /// What each store does to stop the statements running now (libpq's cancel request).
    private let handlers = Mutex<[@Sendable () -> Void]>([])

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Adds what to run when the interruption is thrown.
    func onInterrupt(_ handler: @escaping @Sendable () -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    func interrupt() {
        requested.store(true, ordering: .releasing)
        for handler in handlers.withLock({ $0 }) { handler() }
    }

    /// The failure a read ends with.
    static let failure = StoreFailure(kind: .interrupted, message: "the read was interrupted")
}
