import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Connection reuse: consecutive requests from one client share a connection when the server
/// keeps it open, and still succeed when it does not.
@Suite struct CurlHTTPClientConnectionTests {
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

    /// A handle whose transfer failed is not reused: the next request starts on a new connection
    /// and a clean handle (no option of the failed request left behind).
    @Test func aFailedTransferDoesNotSpoilTheNextRequest() async throws {
        let broken = try RawSocketServer(.truncatedBody(declaredLength: 100, sentLength: 10))
        defer { broken.stop() }
        let healthy = try RawSocketServer(.sendToEveryRequest(Self.ok))
        defer { healthy.stop() }
        let client = makeClient()

        #expect(await client.fetch(broken.baseURL + "/rest").failure == .truncatedBody)
        let first = try await client.fetch(healthy.baseURL + "/rest").get()
        let second = try await client.fetch(healthy.baseURL + "/rest").get()

        #expect(first.body == Array("{}".utf8) && second.body == Array("{}".utf8))
        #expect(healthy.connectionCount == 1)
    }
}
