import Synchronization

/// `--max-bytes`, shared by every transfer of a run: once it is spent, the transfer that would
/// pass it stops and the run ends with 75 ("run again to continue").
final class ByteBudget: Sendable {
    private let limit: Int?
    private let used = Mutex(0)
    private let exhausted = Atomic(false)

    init(limit: Int?) { self.limit = limit }

    /// Takes `count` bytes; false once the limit would be passed.
    func take(_ count: Int) -> Bool {
        guard let limit else { return true }
        let fits = used.withLock { used in
            guard used + count <= limit else { return false }
            used += count
            return true
        }
        if !fits { exhausted.store(true, ordering: .relaxed) }
        return fits
    }

    var isExhausted: Bool { exhausted.load(ordering: .relaxed) }
}
