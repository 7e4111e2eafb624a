/// Waits for transactions that other containers and processes commit, so a follower of the
/// history reads it only when there is something new (``PersistentContainer/historyWaiter(pollInterval:)``).
///
/// On PostgreSQL a connection of its own LISTENs on the store's channel, which every save with
/// history NOTIFYs in its transaction (delivered at commit, never for a rollback): no query is made
/// while nothing commits. On SQLite it looks whether the file changed (`PRAGMA data_version` on a
/// connection of its own, one cheap statement) every `pollInterval`. In memory, no other process
/// can write: it looks at the current token.
///
/// Use it from one thread at a time.
public final class HistoryWaiter {
    private let container: PersistentContainer
    private let signal: any HistorySignal
    private var checkedToken = false

    init(_ container: PersistentContainer, signal: any HistorySignal) {
        (self.container, self.signal) = (container, signal)
    }

    /// Waits until a transaction may have committed after `token`, `timeout` passes, or
    /// `isCancelled` (asked at least every 100 ms) returns true. The first call looks at the
    /// current token too, for what committed before the waiter was listening.
    ///
    /// - Returns: true when there may be history after `token` (read it, then wait again after
    ///   the token read); false after the timeout or cancellation.
    public func wait(after token: HistoryToken, timeout: Duration, until isCancelled: () -> Bool) throws(GraphStoreError) -> Bool {
        let deadline = ContinuousClock.now + timeout
        do {
            if !checkedToken {
                checkedToken = true
                if try container.currentHistoryToken() > token { return true }
            }
            return try signal.wait(after: token, until: deadline, isCancelled)
        } catch let error as GraphStoreError {
            throw error
        } catch {
            throw .readFailed(StoreFailure(kind: .other, message: "\(error)"))
        }
    }
}

/// How a ``HistoryWaiter`` learns of commits: one per kind of store.
protocol HistorySignal: AnyObject {
    /// True as soon as a transaction after `token` may have committed; false at `deadline` or
    /// once `isCancelled` returns true.
    func wait(after token: HistoryToken, until deadline: ContinuousClock.Instant, _ isCancelled: () -> Bool) throws -> Bool
}

extension HistorySignal {
    /// The next wait: at most 100 ms (so cancellation is seen promptly), and not past `deadline`
    /// or `next`; nil once `deadline` has passed.
    static func slice(until deadline: ContinuousClock.Instant, or next: ContinuousClock.Instant? = nil) -> Duration? {
        let now = ContinuousClock.now
        guard now < deadline else { return nil }
        return min(.milliseconds(100), deadline - now, next.map { max(.zero, $0 - now) } ?? .milliseconds(100))
    }
}

extension Duration {
    var milliseconds: Int32 { Int32(clamping: components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000) }
}
