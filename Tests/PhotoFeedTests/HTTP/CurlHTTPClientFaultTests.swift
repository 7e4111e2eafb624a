import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Broken servers: silence, short bodies, resets, endless bodies.
@Suite(.onTestThreads) struct CurlHTTPClientFaultTests {
    @Test func silentServerTimesOutAndIsRetried() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let sleeps = SleepRecorder()

        let result = await makeClient(sleeps, timeout: 0.5, retries: 1).fetch(server.baseURL + "/rest")

        #expect(result.failure == .timedOut)
        #expect(server.connectionCount == 2)
    }

    /// The total timeout is far beyond the time limit: only the connect timeout can end this in time.
    @Test(.timeLimit(.minutes(1)))
    func stalledHandshakeHitsTheConnectTimeout() async throws {
        let server = try RawSocketServer(.neverAccept)
        defer { server.stop() }

        let result = await makeClient(timeout: 90, connectTimeout: 0.3).fetch(server.baseURL + "/rest")

        #expect(result.failure == .timedOut)
    }

    @Test func endlessBodyTimesOut() async throws {
        let server = try RawSocketServer(.endlessBody)
        defer { server.stop() }

        let result = await makeClient(timeout: 0.5).fetch(server.baseURL + "/rest")

        #expect(result.failure == .timedOut)
    }

    @Test func bodyShorterThanContentLengthIsTruncated() async throws {
        let server = try RawSocketServer(.truncatedBody(declaredLength: 1000, sentLength: 10))
        defer { server.stop() }

        let result = await makeClient(retries: 1).fetch(server.baseURL + "/rest")

        #expect(result.failure == .truncatedBody)
        #expect(server.connectionCount == 2)
    }

    @Test func resetMidBodyIsAConnectionError() async throws {
        let server = try RawSocketServer(.resetMidBody(declaredLength: 100_000, sentLength: 1000))
        defer { server.stop() }

        let result = await makeClient().fetch(server.baseURL + "/rest")

        guard case .connection = result.failure else {
            Issue.record("expected a connection error, got \(result)")
            return
        }
    }

    /// TLS failures are final: retrying cannot fix a certificate or a protocol mismatch.
    @Test func tlsFailureIsNotRetried() async throws {
        let server = try RawSocketServer(.sendWithoutReading(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)))
        defer { server.stop() }

        let result = await makeClient(retries: 2).fetch("https://127.0.0.1:\(server.port)/rest")

        guard case .tls = result.failure else {
            Issue.record("expected a TLS error, got \(result)")
            return
        }
        #expect(server.connectionCount == 1)
    }

    @Test func emptyReplyIsAConnectionError() async throws {
        let server = try RawSocketServer(.closeImmediately)
        defer { server.stop() }

        let result = await makeClient().fetch(server.baseURL + "/rest")

        guard case .connection = result.failure else {
            Issue.record("expected a connection error, got \(result)")
            return
        }
    }
}
