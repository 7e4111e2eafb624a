import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Happy paths against a real in-process HTTP server.
@Suite(.onTestThreads) struct CurlHTTPClientTests {
    @Test func returnsBodyAndSendsUserAgent() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .text(#"{"stat":"ok"}"#, headers: ["Content-Type": "application/json"]))

            let response = try await makeClient().fetch(server.url("/rest?method=photos.getRecent&page=2")).get()

            #expect(response.status == 200)
            #expect(response.body == Array(#"{"stat":"ok"}"#.utf8))
            #expect(response.headers["content-type"] == "application/json")
            let request = try #require(server.requests(to: "/rest").first)
            #expect(request.headers["user-agent"] == "photosync-test/1.0")
            #expect(request.query["page"] == "2")
            #expect(request.method == "GET")
        }
    }

    @Test func decodesGzip() async throws {
        try await TestHTTPServer.withRunning { server in
            let json = Array(String(repeating: #"{"id":"1","title":"sunset"},"#, count: 200).utf8)
            server.route("/gz", .gzipped(json))

            let response = try await makeClient().fetch(server.url("/gz")).get()

            #expect(response.body == json)
            #expect(response.headers["content-encoding"] == "gzip")
            #expect(server.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
        }
    }

    @Test func followsRedirects() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/old", .redirect(to: "/new", status: 301))
            server.route("/new", .text("moved here"))

            let response = try await makeClient().fetch(server.url("/old")).get()

            #expect(response.body == Array("moved here".utf8))
            #expect(server.requests.map(\.path) == ["/old", "/new"])
        }
    }

    /// The feed parser, not the transport, rejects an HTML error page served as 200.
    @Test func htmlWithStatus200IsNotAnHTTPError() async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/rest", .text("<html><body>Service Unavailable</body></html>", headers: ["Content-Type": "text/html"]))

            let response = try await makeClient().fetch(server.url("/rest")).get()

            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "text/html")
        }
    }
}
