/// Knobs for `CurlHTTPClient`; defaults suit a CLI talking to a public API.
public struct HTTPClientConfiguration: Sendable, Equatable {
    /// Total seconds allowed for one attempt, connect included.
    public var timeout: Double
    /// Seconds allowed to establish the connection.
    public var connectTimeout: Double
    /// Extra attempts after the first one for retryable failures.
    public var retries: Int
    /// Largest accepted body after decompression; bigger responses are aborted mid-transfer.
    public var maxResponseBytes: Int
    public var userAgent: String
    public var maxRedirects: Int
    public var backoff: RetryPolicy
    /// The longest `Retry-After` (seconds) worth waiting for; a longer one ends the call with
    /// `HTTPError.retryLater` instead of a sleep (a cron job should not sleep through an hour).
    /// Nil waits for any, capped by `backoff.maxDelay`.
    public var longestRetryAfter: Double?
    /// A PEM file of CA certificates to verify servers with instead of the system's
    /// (`CURLOPT_CAINFO`): a private root, or a TLS-inspecting proxy's. Verification stays on.
    public var caFile: String?
    /// Connections kept open between requests: one per transfer that runs at once.
    public var idleConnections = 2

    /// `connectTimeout` defaults to `min(10, timeout)`.
    public init(
        timeout: Double = 30,
        connectTimeout: Double? = nil,
        retries: Int = 3,
        maxResponseBytes: Int = 64 << 20,
        userAgent: String = "photosync/0.1.0",
        maxRedirects: Int = 5,
        backoff: RetryPolicy = RetryPolicy(),
        longestRetryAfter: Double? = nil,
        caFile: String? = nil
    ) {
        self.timeout = timeout
        self.connectTimeout = connectTimeout ?? min(10, timeout)
        self.retries = max(0, retries)
        self.maxResponseBytes = max(0, maxResponseBytes)
        self.userAgent = userAgent
        self.maxRedirects = max(0, maxRedirects)
        self.backoff = backoff
        self.longestRetryAfter = longestRetryAfter
        self.caFile = caFile
    }
}
