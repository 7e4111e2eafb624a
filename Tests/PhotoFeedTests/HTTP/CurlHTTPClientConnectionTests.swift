@testable import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Connection reuse: consecutive requests from one client share a connection when the server
/// keeps it open, and still succeed when it does not.
@Suite(.onTestThreads) struct CurlHTTPClientConnectionTests {
    private static let ok = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8)

    @Test func consecutiveRequestsReuseOneConnection() async throws {
        let server = try RawSocketServer(.sendToEveryRequest(Self.ok))
        defer { server.stop() }
        let client = makeClient()

        var bodies: [[UInt8]] = []
        for page in 1...3 {
            bodies.append(try await client.fetch(server.baseURL + "/rest?page=\(page)").get().body)
        }

        #expect(bodies == Array(repeating: Array("{}".utf8), count: 3))
        #expect(server.connectionCount == 1)
    }

    @Test func aConnectionTheServerClosedIsReplaced() async throws {
        let server = try RawSocketServer(.send(Self.ok))
        defer { server.stop() }
        let client = makeClient()

        for page in 1...3 {
            let response = try await client.fetch(server.baseURL + "/rest?page=\(page)").get()
            #expect(response.body == Array("{}".utf8))
        }
        #expect(server.connectionCount == 3)
    }

    /// An HTTP error status is a completed transfer: the retry goes out on the same connection.
    @Test func aRetryAfterAServerErrorReusesTheConnection() async throws {
        let unavailable = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n".utf8)
        let server = try RawSocketServer(.sendInTurn([unavailable, Self.ok]))
        defer { server.stop() }
        let sleeps = SleepRecorder()

        let response = try await makeClient(sleeps, retries: 1).fetch(server.baseURL + "/rest").get()

        #expect(response.status == 200 && response.body == Array("{}".utf8))
        #expect(server.connectionCount == 1)
    }

    /// A handle whose transfer failed is closed, not kept: the next request starts on a new handle
    /// and a new connection.
    @Test func aFailedTransfersHandleIsNotKept() async throws {
        let broken = try RawSocketServer(.truncatedBody(declaredLength: 100, sentLength: 10))
        defer { broken.stop() }
        let healthy = try RawSocketServer(.sendToEveryRequest(Self.ok))
        defer { healthy.stop() }
        let client = makeClient()

        #expect(await client.fetch(healthy.baseURL + "/rest").failure == nil)
        #expect(client.handles.idleCount == 1)
        #expect(await client.fetch(broken.baseURL + "/rest").failure == .truncatedBody)
        #expect(client.handles.idleCount == 0)
        let response = try await client.fetch(healthy.baseURL + "/rest").get()

        #expect(response.body == Array("{}".utf8))
        #expect(healthy.connectionCount == 2)
    }

    /// One client from eight threads at once (a server that answers connections concurrently):
    /// each request has a handle to itself.
    @Test func concurrentRequestsFromOneClientAllSucceed() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .text("{}"))
            let client = makeClient()

            let bodies = await withTaskGroup(of: [UInt8]?.self) { group in
                for page in 1...8 {
                    group.addTask { try? await client.fetch(server.url("/rest?page=\(page)")).get().body }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }

            #expect(bodies.count == 8 && bodies.allSatisfy { $0 == Array("{}".utf8) })
            #expect(server.requests(to: "/rest").count == 8)
        }
    }
}
