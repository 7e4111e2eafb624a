#if canImport(Glibc)
import Glibc
#endif

/// An in-memory store's ``HistorySignal``: only this process writes to it; the current token is
/// looked at every `interval`.
final class HistoryTokenPoller: HistorySignal {
    private unowned let container: PersistentContainer
    private let interval: Duration

    init(_ container: PersistentContainer, interval: Duration) { (self.container, self.interval) = (container, interval) }

    func wait(after token: HistoryToken, until deadline: ContinuousClock.Instant, _ isCancelled: () -> Bool) throws -> Bool {
        var nextLook = ContinuousClock.now + interval
        while !isCancelled(), let slice = Self.slice(until: deadline, or: nextLook) {
            if ContinuousClock.now >= nextLook {
                if try container.currentHistoryToken() > token { return true }
                nextLook = .now + interval
            }
            usleep(UInt32(slice.milliseconds) * 1000)
        }
        return false
    }
}
