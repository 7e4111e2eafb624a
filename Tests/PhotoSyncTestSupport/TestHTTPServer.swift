import Dispatch
import Foundation
import Glibc
import Synchronization

/// An in-process HTTP/1.1 server on 127.0.0.1 (OS-assigned port) with
/// scriptable routes and request recording.
///
/// Routes and assertions are synchronous, so the same server serves a test's
/// own HTTP client or a `photosync` child process. It stops on `stop()`,
/// at the end of `withRunning`, or when released.
///
/// It runs on threads of its own (one accepting, one per connection), never on
/// Swift's cooperative pool: a suite of synchronous tests holding that pool's two
/// threads cannot starve it while a client waits for an answer.
public final class TestHTTPServer: Sendable {
    public let port: UInt16
    /// "http://127.0.0.1:PORT", no trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let routes: RouteTable
    private let lifetime: ServerLifetime

    /// Starts listening; unknown paths answer 404 until routed.
    public static func start() async throws -> TestHTTPServer {
        let (listener, port) = try LoopbackSocket.listen(backlog: 64)
        let routes = RouteTable()
        let lifetime = ServerLifetime()
        let accepting = AcceptLoop(listener: listener, routes: routes, lifetime: lifetime)
        Thread { accepting.run() }.start()
        return TestHTTPServer(port: port, routes: routes, lifetime: lifetime)
    }

    private init(port: UInt16, routes: RouteTable, lifetime: ServerLifetime) {
        self.port = port
        self.routes = routes
        self.lifetime = lifetime
    }

    /// A forgotten `stop()` must not leave a listener running for the rest of the test process.
    deinit {
        lifetime.stop()
    }

    /// Closes the listener (connecting is refused once this returns); open
    /// connections close within about 50 ms.
    public func stop() async {
        lifetime.stop()
        let lifetime = lifetime
        await runOnDedicatedThread { lifetime.waitUntilListenerClosed() }
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

/// The stop flag every server thread polls, and the signal that the listener is closed.
final class ServerLifetime: Sendable {
    private let stopped = Atomic(false)
    private let listenerClosed = DispatchSemaphore(value: 0)

    var isStopped: Bool { stopped.load(ordering: .acquiring) }
    func stop() { stopped.store(true, ordering: .releasing) }

    func markListenerClosed() { listenerClosed.signal() }

    /// Blocks until the accepting thread closed the listener; callable any number of times.
    func waitUntilListenerClosed() {
        listenerClosed.wait()
        listenerClosed.signal()
    }
}

/// The accepting thread: one `HTTPConnectionLoop` thread per connection, until stopped.
private struct AcceptLoop: Sendable {
    let listener: Int32
    let routes: RouteTable
    let lifetime: ServerLifetime

    func run() {
        defer {
            close(listener)
            lifetime.markListenerClosed()
        }
        while !lifetime.isStopped {
            guard LoopbackSocket.waitReadable(listener, timeout: 0.05) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let serving = HTTPConnectionLoop(connection: connection, routes: routes, lifetime: lifetime)
            Thread { serving.run() }.start()
        }
    }
}
