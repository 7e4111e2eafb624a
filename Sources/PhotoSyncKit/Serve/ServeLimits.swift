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
