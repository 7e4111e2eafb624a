import Foundation
import PhotoFeed
import PhotoSyncTestSupport
import Synchronization
import Testing

/// A flag another thread raises after `delay` seconds, for `get(_:isCancelled:)`.
final class CancelFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    private let checks = Atomic<Int>(0)

    init(after delay: Double? = nil) {
        guard let delay else { return }
        Thread {
            Thread.sleep(forTimeInterval: delay)
            self.raise()
        }.start()
    }

    func raise() { raised.store(true, ordering: .sequentiallyConsistent) }

    /// What the client polls; counts the polls.
    var isRaised: Bool {
        checks.add(1, ordering: .relaxed)
        return raised.load(ordering: .sequentiallyConsistent)
    }

    var checkCount: Int { checks.load(ordering: .relaxed) }
}

extension CurlHTTPClient {
    /// `get` with a cancellation check, on its own thread.
    func fetch(_ url: String, cancelledBy flag: CancelFlag) async -> Result<HTTPResponse, HTTPError> {
        await runOnDedicatedThread {
            Result { () throws(HTTPError) -> HTTPResponse in try self.get(url, isCancelled: { flag.isRaised }) }
        }
    }
}

/// Cancelling a GET: the transfer, the connect and the back-off between attempts all stop early,
/// and the caller sees `.cancelled`, never a timeout.
@Suite(.onTestThreads) struct CurlHTTPClientCancellationTests {
    /// A 60 s timeout the test's time limit could not survive: only cancellation ends it in time.
    @Test(.timeLimit(.minutes(1)))
    func cancellingAbortsARequestTheServerNeverAnswers() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let flag = CancelFlag(after: 0.3)

        let result = await makeClient(timeout: 60, retries: 3).fetch(server.baseURL + "/rest", cancelledBy: flag)

        #expect(result.failure == .cancelled)
        #expect(server.connectionCount == 1, "a cancelled request is not retried")
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingAbortsAStalledConnect() async throws {
        let server = try RawSocketServer(.neverAccept)
        defer { server.stop() }

        let result = await makeClient(timeout: 60, connectTimeout: 60).fetch(
            server.baseURL + "/rest", cancelledBy: CancelFlag(after: 0.3))

        #expect(result.failure == .cancelled)
    }

    @Test(.timeLimit(.minutes(1)))
    func cancellingAbortsAnEndlessBody() async throws {
        let server = try RawSocketServer(.endlessBody)
        defer { server.stop() }

        let result = await makeClient(timeout: 60).fetch(server.baseURL + "/rest", cancelledBy: CancelFlag(after: 0.3))

        #expect(result.failure == .cancelled)
    }

    /// The default sleep wakes up for a cancellation; the back-off here would be 50 s.
    @Test(.timeLimit(.minutes(1)))
    func cancellingEndsTheBackOffBetweenAttempts() async throws {
        let server = try RawSocketServer(.closeImmediately)
        defer { server.stop() }
        let configuration = HTTPClientConfiguration(
            timeout: 5, retries: 3, backoff: RetryPolicy(baseDelay: 50, maxDelay: 50))
        let flag = CancelFlag(after: 0.5)

        let result = await CurlHTTPClient(configuration: configuration).fetch(server.baseURL + "/rest", cancelledBy: flag)

        #expect(result.failure == .cancelled)
        #expect(server.connectionCount == 1)
    }

    @Test func alreadyCancelledMakesNoRequest() async throws {
        let server = try RawSocketServer(.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)))
        defer { server.stop() }
        let flag = CancelFlag()
        flag.raise()

        let result = await makeClient().fetch(server.baseURL + "/rest", cancelledBy: flag)

        #expect(result.failure == .cancelled)
        #expect(server.connectionCount == 0)
    }

    @Test func aCheckThatNeverFiresChangesNothing() async throws {
        let server = try RawSocketServer(.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)))
        defer { server.stop() }
        let flag = CancelFlag()

        let result = await makeClient().fetch(server.baseURL + "/rest", cancelledBy: flag)

        #expect(try result.get().body == Array("ok".utf8))
        #expect(flag.checkCount >= 1)
    }

    @Test func cancelledIsFinalAndSaysSo() {
        #expect(!HTTPError.cancelled.isRetryable)
        #expect(HTTPError.cancelled.description == "request cancelled")
    }

    @Test func cancellableSleepReportsWhetherItSleptThrough() {
        #expect(CurlHTTPClient.sleepThread(0.05, unless: { false }))
        #expect(!CurlHTTPClient.sleepThread(1000, unless: { true }))
    }
}
