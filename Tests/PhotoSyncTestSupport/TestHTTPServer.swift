import FlyingFox
import FlyingSocks
import Foundation

/// An in-process HTTP/1.1 server on 127.0.0.1 (OS-assigned port) with
/// scriptable routes and request recording, built on FlyingFox.
///
/// Routes and assertions are synchronous, so the same server serves a test's
/// own HTTP client or a `photosync` child process. It stops on `stop()`,
/// at the end of `withRunning`, or when released.
///
/// The server runs on Swift's cooperative thread pool (two threads on a
/// two-core machine). Never block a pool thread while waiting for it: run
/// blocking work (a libcurl request, `Process.waitUntilExit`) through
/// `runOnDedicatedThread`, or the server may starve until the client times out.
public final class TestHTTPServer: Sendable {
    public let port: UInt16
    /// "http://127.0.0.1:PORT", no trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let server: HTTPServer
    private let runTask: Task<Void, any Error>
    private let routes: RouteTable

    /// Starts listening; unknown paths answer 404 until routed.
    public static func start() async throws -> TestHTTPServer {
        let routes = RouteTable()
        let server = HTTPServer(
            address: try .inet(ip4: "127.0.0.1", port: 0),
            timeout: 30,
            logger: .disabled,
            handler: ClosureHTTPHandler { request in
                HTTPResponse(routes.respond(to: RecordedRequest(request)))
            }
        )
        let runTask = Task { try await server.run() }
        // Generous: with the whole suite (and builds) on two cores, the cooperative pool can be slow to start it.
        try await server.waitUntilListening(timeout: 120)
        guard case .ip4(_, let port) = await server.listeningAddress else {
            runTask.cancel()
            throw SocketError.unsupportedAddress
        }
        return TestHTTPServer(port: port, server: server, runTask: runTask, routes: routes)
    }

    private init(port: UInt16, server: HTTPServer, runTask: Task<Void, any Error>, routes: RouteTable) {
        self.port = port
        self.server = server
        self.runTask = runTask
        self.routes = routes
    }

    /// A forgotten `stop()` must not leave a listener running for the rest of the test process.
    deinit {
        runTask.cancel()
    }

    /// Closes the listener and open connections.
    public func stop() async {
        await server.stop(timeout: 1)
        runTask.cancel()
    }

    /// `baseURL` + `path`, e.g. `url("/feed?page=2")`.
    public func url(_ path: String) -> String {
        baseURL + path
    }

    /// Requests to `path` get `responses` in order; the last one repeats.
    public func route(_ path: String, _ responses: TestResponse...) {
        routes.set(path, .sequence(responses, served: 0))
    }

    /// Requests to `path` are answered by `handler`, e.g. to echo the query.
    public func route(_ path: String, handler: @escaping @Sendable (RecordedRequest) -> TestResponse) {
        routes.set(path, .handler(handler))
    }

    /// Every request received so far, in arrival order.
    public var requests: [RecordedRequest] {
        routes.requests
    }

    public func requests(to path: String) -> [RecordedRequest] {
        requests.filter { $0.path == path }
    }
}

extension RecordedRequest {
    fileprivate init(_ request: HTTPRequest) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers {
            headers[name.rawValue.lowercased()] = value
        }
        self.init(
            method: request.method.rawValue,
            path: request.path,
            query: Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
            headers: headers
        )
    }
}

extension HTTPResponse {
    fileprivate init(_ response: TestResponse) {
        var headers = HTTPHeaders()
        for (name, value) in response.headers {
            headers[HTTPHeader(name)] = value
        }
        self.init(statusCode: HTTPStatusCode(response.status, phrase: "Test"), headers: headers, body: Data(response.body))
    }
}

extension TestHTTPServer {
    /// Starts a server, runs `body` with it, and stops it even when `body` throws.
    public static func withRunning<T>(_ body: (TestHTTPServer) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
