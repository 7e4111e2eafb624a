import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Broken servers: silence, short bodies, resets, endless bodies.
@Suite struct CurlHTTPClientFaultTests {
    @Test func silentServerTimesOutAndIsRetried() async throws {
        let server = try RawSocketServer(.neverRespond)
        defer { server.stop() }
        let sleeps = SleepRecorder()

        let result = await makeClient(sleeps, timeout: 0.5, retries: 1).fetch(server.baseURL + "/rest")

        #expect(result.failure == .timedOut)
        #expect(server.connectionCount == 2)
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
