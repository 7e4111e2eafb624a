import Foundation
import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Which URLs may be fetched, and that the API key never shows in errors.
@Suite(.onTestThreads) struct CurlHTTPClientSchemeTests {
    @Test(arguments: [false, true])
    func redirectToFileIsRefused(allowFileScheme: Bool) async throws {
        try await TestHTTPServer.withRunning { server in
            server.route("/evil", .redirect(to: "file:///etc/hostname"))

            let result = await makeClient().fetch(server.url("/evil"), allowFileScheme: allowFileScheme)

            #expect(result.failure == .redirectRefused("file:///etc/hostname"))
        }
    }

    @Test func fileURLIsReadWhenAllowed() async throws {
        let file = try TemporaryFile(contents: #"{"photos":{"page":1}}"#)
        defer { file.remove() }

        let response = try await makeClient().fetch(file.url, allowFileScheme: true).get()

        #expect(response.status == 200)
        #expect(response.body == Array(#"{"photos":{"page":1}}"#.utf8))
    }

    @Test func fileURLIsRefusedByDefault() async throws {
        let file = try TemporaryFile(contents: "{}")
        defer { file.remove() }

        let result = await makeClient().fetch(file.url)

        #expect(result.failure == .schemeNotAllowed(file.url))
    }

    @Test func missingFileIsUnreadable() async {
        let result = await makeClient().fetch("file:///nonexistent/photosync-\(UInt64.random(in: 0...UInt64.max)).json", allowFileScheme: true)

        guard case .fileUnreadable = result.failure else {
            Issue.record("expected fileUnreadable, got \(result)")
            return
        }
    }

    @Test(arguments: ["ftp://127.0.0.1/feed", "gopher://127.0.0.1/", "javascript://x"])
    func otherSchemesAreRefused(url: String) async {
        #expect(await makeClient().fetch(url).failure == .schemeNotAllowed(url))
    }

    @Test(arguments: ["127.0.0.1/feed", "", "://nothing", "http://bad host/"])
    func malformedURLsAreInvalid(url: String) async {
        guard case .invalidURL = await makeClient().fetch(url).failure else {
            Issue.record("expected invalidURL for \(url)")
            return
        }
    }

    @Test func apiKeyNeverAppearsInAnyErrorText() async throws {
        let closedPort = try closedLoopbackPort()
        let silent = try RawSocketServer(.neverRespond)
        defer { silent.stop() }
        let query = "?method=photos.getRecent&api_key=\(apiKey)"
        let errors = try await TestHTTPServer.withRunning { server in
            server.route("/missing", .status(404))
            server.route("/evil", .redirect(to: "file:///etc/hostname" + query))
            let client = makeClient(timeout: 0.5)
            return [
                await client.fetch(server.url("/missing") + query).failure,
                await client.fetch(server.url("/evil") + query).failure,
                await client.fetch("ftp://127.0.0.1/" + query).failure,
                await client.fetch("127.0.0.1/" + query).failure,
                await client.fetch("http://127.0.0.1:\(closedPort)/" + query).failure,
                await client.fetch(silent.baseURL + "/" + query).failure,
                await client.fetch("file:///nonexistent/" + query, allowFileScheme: true).failure,
            ]
        }

        #expect(errors.allSatisfy { $0 != nil })
        for case let error? in errors {
            #expect(!error.description.contains(apiKey), "\(error.description)")
            #expect(error.localizedDescription.contains(apiKey) == false)
        }
    }
}

/// A file in the temporary directory for file:// tests.
struct TemporaryFile {
    let path: String
    var url: String { "file://" + path }

    init(contents: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("photosync-\(UUID().uuidString).json").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
