internal import CCurl

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocking HTTP GET over libcurl's easy API, with retries and hard limits.
///
/// `Sendable`: every request has an easy handle to itself (taken from the
/// client's pool, which keeps connections open between requests), so one
/// client may be used from many threads at once.
/// Calls block the calling thread; from async code, run them off the
/// cooperative pool. A caller that must be able to stop a call (on SIGINT, say)
/// passes `isCancelled` to `get`.
public final class CurlHTTPClient: Sendable {
    public let configuration: HTTPClientConfiguration
    private let sleep: (@Sendable (Double) -> Void)?
    let handles: CurlHandlePool

    /// `sleep` waits between retries (seconds); tests inject a recorder. The
    /// default (nil) blocks the thread but wakes early when the request is cancelled.
    public init(
        configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        sleep: (@Sendable (Double) -> Void)? = nil
    ) {
        self.configuration = configuration
        self.sleep = sleep
        handles = CurlHandlePool(capacity: configuration.idleConnections)
    }

    /// GETs `url`, following up to `maxRedirects` http/https redirects.
    ///
    /// Retries with back-off on connection errors, timeouts, truncated bodies,
    /// 5xx and 429 (honouring `Retry-After`, or throwing `.retryLater` when it asks for longer than
    /// `longestRetryAfter`), never on other 4xx. After the
    /// last attempt it throws that attempt's error. Any 2xx/3xx final response
    /// is returned as is: judging the body is the caller's job.
    /// `file://` is accepted only with `allowFileScheme` (an explicit user choice).
    ///
    /// `isCancelled` is polled from libcurl's progress callback during each
    /// transfer (about once a second while nothing arrives, more often while
    /// data flows), before each attempt and during the back-off between
    /// attempts. Once it returns true the call ends with `HTTPError.cancelled`.
    /// It runs on the calling thread.
    ///
    /// `mayAttempt` is asked before every attempt, retries included (a quota counts each request);
    /// a reason it returns ends the call with `HTTPError.notAttempted`. `willRetry` hears each retry
    /// before its wait: the retry's number, the failure that caused it, the seconds to wait.
    public func get(
        _ url: String, allowFileScheme: Bool = false, isCancelled: @escaping @Sendable () -> Bool = { false },
        willRetry: (_ retry: Int, _ after: HTTPError, _ delay: Double) -> Void = { _, _, _ in },
        mayAttempt: () -> String? = { nil }
    ) throws(HTTPError) -> HTTPResponse {
        try URLScheme.check(url, allowFileScheme: allowFileScheme)
        return try retrying(isCancelled: isCancelled, willRetry: willRetry, mayAttempt: mayAttempt) { () throws(AttemptFailure) in
            try perform(url, allowFileScheme: allowFileScheme, isCancelled: isCancelled)
        }
    }

    /// GETs `url` (http or https only) as `get` does, retries included, but streams the body into
    /// `stream` instead of memory, and asks for bytes from `resumeAt` on (a `Range` request) when
    /// it is given. The body arrives as sent: no `Accept-Encoding`, so `Content-Length` counts the
    /// very bytes `stream` receives. The returned response has an empty body.
    public func download(
        _ url: String, into stream: any ResponseStream, resumeAt: Int? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        willRetry: (_ retry: Int, _ after: HTTPError, _ delay: Double) -> Void = { _, _, _ in }
    ) throws(HTTPError) -> HTTPResponse {
        try URLScheme.check(url, allowFileScheme: false)
        var first = true
        return try retrying(isCancelled: isCancelled, willRetry: willRetry, mayAttempt: { nil }) { () throws(AttemptFailure) in
            stream.restart()
            // A retry starts over: what the cut attempt wrote was discarded by `restart`.
            defer { first = false }
            return try perform(url, allowFileScheme: false, isCancelled: isCancelled, stream: stream, resumeAt: first ? resumeAt : nil)
        }
    }

    /// The attempts of one call: `attempt` until it succeeds, fails for good, or retries run out.
    private func retrying(
        isCancelled: @escaping @Sendable () -> Bool,
        willRetry: (_ retry: Int, _ after: HTTPError, _ delay: Double) -> Void,
        mayAttempt: () -> String?,
        _ attemptOnce: () throws(AttemptFailure) -> HTTPResponse
    ) throws(HTTPError) -> HTTPResponse {
        var attempt = 1
        while true {
            guard !isCancelled() else { throw .cancelled }
            if let refusal = mayAttempt() { throw .notAttempted(refusal) }
            do {
                return try attemptOnce()
            } catch let failure {
                let delay = try retryDelay(after: failure, attempt: attempt)
                willRetry(attempt, failure.reason, delay)
                if let sleep {
                    sleep(delay)
                } else if !Self.sleepThread(delay, unless: isCancelled) {
                    throw .cancelled
                }
                attempt += 1
            }
        }
    }

    /// The default `sleep`: blocks the calling thread.
    public static func sleepThread(_ seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(seconds.truncatingRemainder(dividingBy: 1) * 1e9))
        var request = remaining
        while nanosleep(&request, &remaining) == -1, errno == EINTR {
            request = remaining
        }
    }

    /// Blocks the calling thread for `seconds`, checking `isCancelled` every 50 ms.
    /// Returns false, early, once it returns true.
    public static func sleepThread(_ seconds: Double, unless isCancelled: () -> Bool) -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int((min(max(0, seconds), 1e6) * 1000).rounded(.up)))
        while true {
            if isCancelled() { return false }
            let left = end - ContinuousClock.now
            guard left > .zero else { return true }
            sleepThread(min(0.05, Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18))
        }
    }

    /// One attempt, blocking. The failure carries the server's `Retry-After` for the back-off.
    private func perform(
        _ url: String, allowFileScheme: Bool, isCancelled: @escaping @Sendable () -> Bool,
        stream: (any ResponseStream)? = nil, resumeAt: Int? = nil
    ) throws(AttemptFailure) -> HTTPResponse {
        let attempt = try CurlAttempt(self, url, allowFileScheme: allowFileScheme, isCancelled: isCancelled, stream: stream, resumeAt: resumeAt)
        return try attempt.conclude(attempt.handle.perform())
    }

    /// How long to wait before attempt `attempt + 1` after `failure`, or the error that ends the call.
    func retryDelay(after failure: AttemptFailure, attempt: Int) throws(HTTPError) -> Double {
        guard failure.reason.isRetryable else { throw failure.reason }
        if let wait = failure.retryAfter, let longest = configuration.longestRetryAfter, wait > longest {
            throw .retryLater(seconds: wait)
        }
        guard attempt <= configuration.retries else { throw failure.reason }
        return configuration.backoff.delay(forAttempt: attempt, retryAfter: failure.retryAfter)
    }

    static func milliseconds(_ seconds: Double) -> Int {
        Int((min(max(0.001, seconds), 1e9) * 1000).rounded(.up))
    }
}
