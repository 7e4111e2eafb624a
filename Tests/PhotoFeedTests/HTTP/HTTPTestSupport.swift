import PhotoFeed
import PhotoSyncTestSupport
import Synchronization

/// Records retry delays instead of sleeping, so retry tests take no time
/// and can assert which delays the policy chose.
final class SleepRecorder: Sendable {
    private let delays = Mutex<[Double]>([])

    var recorded: [Double] { delays.withLock { $0 } }

    func sleep(_ seconds: Double) {
        delays.withLock { $0.append(seconds) }
    }
}

/// A client whose retry sleeps go to `recorder`. The default timeout is generous so a loaded
/// machine cannot turn a slow answer into a retry; timeout tests pass their own small value.
/// (30 s was not enough once: with the whole suite running on two cores, the in-process server
/// answered a redirect after more than 30 s, and the retry made the request count wrong.)
func makeClient(
    _ recorder: SleepRecorder = SleepRecorder(),
    timeout: Double = 180,
    connectTimeout: Double? = nil,
    retries: Int = 0,
    maxResponseBytes: Int = 1 << 20,
    maxRedirects: Int = 5,
    longestRetryAfter: Double? = nil
) -> CurlHTTPClient {
    let configuration = HTTPClientConfiguration(
        timeout: timeout,
        connectTimeout: connectTimeout,
        retries: retries,
        maxResponseBytes: maxResponseBytes,
        userAgent: "photosync-test/1.0",
        maxRedirects: maxRedirects,
        backoff: RetryPolicy(baseDelay: 0.01, maxDelay: 30),
        longestRetryAfter: longestRetryAfter
    )
    return CurlHTTPClient(configuration: configuration, sleep: { recorder.sleep($0) })
}

extension CurlHTTPClient {
    /// `get` on its own thread, so the in-process server keeps the cooperative pool.
    func fetch(_ url: String, allowFileScheme: Bool = false) async -> Result<HTTPResponse, HTTPError> {
        await runOnDedicatedThread {
            Result { () throws(HTTPError) -> HTTPResponse in try self.get(url, allowFileScheme: allowFileScheme) }
        }
    }
}

extension Result {
    /// The failure, or nil on success; keeps `#expect(result.failure == .timedOut)` short.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

let apiKey = "k3y-SECRET-0123456789"
