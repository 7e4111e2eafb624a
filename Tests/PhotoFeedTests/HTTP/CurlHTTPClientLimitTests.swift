import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Size and redirect limits.
@Suite(.onTestThreads) struct CurlHTTPClientLimitTests {
    let cap = 1 << 20

    @Test func bodyLargerThanTheCapIsRefused() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/big", TestResponse(body: Array(repeating: 0x41, count: 5 << 20)))

            let result = await makeClient(retries: 2, maxResponseBytes: cap).fetch(server.url("/big"))

            #expect(result.failure == .tooLarge(limit: cap))
            #expect(server.requests.count == 1)
        }
    }

    /// The cap counts decompressed bytes: ~33 KB of gzip inflating to 5 MiB is refused.
    @Test func gzipBombIsRefused() async throws {
        try await TestHTTPServer.withRunning { server in
            let bomb = TestResponse.gzipped(Array(repeating: 0, count: 5 << 20))
            #expect(bomb.body.count < cap)
            server.route("/bomb", bomb)

            let result = await makeClient(maxResponseBytes: cap).fetch(server.url("/bomb"))

            #expect(result.failure == .tooLarge(limit: cap))
        }
    }

    @Test func bodyExactlyAtTheCapIsAccepted() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/full", TestResponse(body: Array(repeating: 0x41, count: cap)))

            let response = try await makeClient(maxResponseBytes: cap).fetch(server.url("/full")).get()

            #expect(response.body.count == cap)
        }
    }

    @Test func redirectLoopStopsAtMaxRedirects() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/loop", .redirect(to: "/loop"))

            let result = await makeClient(retries: 2, maxRedirects: 3).fetch(server.url("/loop"))

            #expect(result.failure == .tooManyRedirects)
            #expect(server.requests.count == 4)
        }
    }
}
