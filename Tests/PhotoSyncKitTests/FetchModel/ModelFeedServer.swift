import PhotoSyncTestSupport
import Synchronization

/// A real HTTP server on 127.0.0.1 serving the current fetch's pages by their `page` parameter.
/// Each answer closes its connection: a reused one waited about 40 ms per page for a delayed ACK,
/// which doubled the test's time.
final class ModelFeedServer: Sendable {
    /// The pages' JSON, shared with the server's handler.
    private final class Pages: Sendable {
        let bodies = Mutex<[String]>([])

        func body(_ number: Int?) -> String? {
            bodies.withLock { bodies in number.flatMap { bodies.indices.contains($0 - 1) ? bodies[$0 - 1] : nil } }
        }
    }

    let server: TestHTTPServer
    private let pages = Pages()

    var endpoint: String { server.url("/rest") }

    init() async throws {
        server = try await TestHTTPServer.start()
        server.route("/rest") { [pages] request in
            pages.body(request.query["page"].flatMap(Int.init)).map { .text($0, headers: ["Content-Type": "application/json", "Connection": "close"]) } ?? .status(404)
        }
    }

    /// Serves `fetch`'s pages from now on.
    func serve(_ fetch: ModelFetch) {
        let count = fetch.pages.count
        pages.bodies.withLock { $0 = fetch.pages.enumerated().map { ModelFeed.page($0.offset + 1, of: count, $0.element) } }
    }

    func stop() async { await server.stop() }
}
