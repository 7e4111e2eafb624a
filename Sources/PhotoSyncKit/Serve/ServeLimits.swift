/// How long a client may take and how many may be connected: a slow or idle client is closed, and
/// past the cap a new connection gets a 503 at once instead of a thread or a buffer.
struct ServeLimits: Sendable, Equatable {
    /// Seconds for a request head to arrive whole (counted from the first wait, so a client
    /// trickling one byte at a time is cut too), for an idle keep-alive connection, and for a reply
    /// to be taken by a slow reader.
    var timeout: Double = 30
    var maxConnections = 64
    /// The longest request head read; longer gets 431 (a gallery URL is a few hundred bytes).
    var maxHeadBytes = 16 * 1024
}

/// A client took longer than ``ServeLimits/timeout``.
struct ServeTimeout: Error {}

/// Runs `body`, or throws ``ServeTimeout`` once `seconds` have passed (cancelling it).
func withDeadline<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw ServeTimeout() }
        return value
    }
}
