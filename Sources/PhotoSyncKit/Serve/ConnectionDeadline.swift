import Synchronization

/// The one timer of a connection: armed before each read of a request head and each write of a
/// reply, cleared after. `watch()` returns once an armed deadline passes, and the connection
/// then cancels its reads and writes.
///
/// One sleeping task per connection rather than one per read or write: a cancelled
/// `Task.sleep` keeps its timer (about 0.6 KB) until it would have fired, so a deadline per
/// operation held `timeout` seconds of requests' timers: 130 MiB under `make bench`'s load,
/// hundreds with more requests a second.
final class ConnectionDeadline: Sendable {
    private let seconds: Double
    private let expiry = Mutex<ContinuousClock.Instant?>(nil)

    init(seconds: Double) { self.seconds = seconds }

    func arm() { expiry.withLock { $0 = .now + .milliseconds(Int(seconds * 1000)) } }

    func clear() { expiry.withLock { $0 = nil } }

    /// Sleeps until an armed deadline has passed (re-reading it as it moves); returns then, or
    /// when cancelled.
    func watch() async {
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let wake = expiry.withLock { $0 } ?? now + .milliseconds(Int(seconds * 1000))
            if wake <= now { return }
            try? await Task.sleep(until: wake, clock: .continuous)
        }
    }
}
