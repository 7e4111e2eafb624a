/// The project's single back-off rule, shared by the HTTP client (5xx, 429,
/// transport errors) and the feed layer (API codes 105/106).
public struct RetryPolicy: Sendable, Equatable {
    /// Delay scale for the first retry, in seconds.
    public var baseDelay: Double
    /// Upper bound for any delay, including a server's `Retry-After`.
    public var maxDelay: Double

    public init(baseDelay: Double = 1, maxDelay: Double = 30) {
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
    }

    /// Delay before retry number `attempt` (1-based).
    ///
    /// A server's `retryAfter` (seconds) wins because it knows its own load;
    /// otherwise exponential back-off with "equal jitter": half the step is
    /// fixed so delays keep growing, half is random so clients don't stampede.
    /// Always within `0...maxDelay`.
    public func delay(forAttempt attempt: Int, retryAfter: Double?) -> Double {
        if let retryAfter {
            return min(max(0, retryAfter), maxDelay)
        }
        let step = min(maxDelay, baseDelay * Self.power(ofTwo: attempt - 1))
        return step / 2 + Double.random(in: 0...(step / 2))
    }

    /// 2^exponent without overflow for absurd attempt numbers.
    private static func power(ofTwo exponent: Int) -> Double {
        Double(sign: .plus, exponent: min(max(0, exponent), 62), significand: 1)
    }
}
