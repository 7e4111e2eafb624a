import Foundation
import Glibc
import PhotoSyncTestSupport
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 serving the current fetch's pages by their `page`
/// parameter, one request per connection (`Connection: close`).
///
/// It runs on a thread of its own, not on Swift's cooperative pool as `TestHTTPServer` does:
/// thousands of requests there starved the other tests' in-process servers on two cores.
final class ModelFeedServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let state = Mutex((pages: [String](), failing: Int?.none, stopped: false))

    var endpoint: String { "http://127.0.0.1:\(port)/rest" }

    init() throws {
        (listener, port) = try LoopbackSocket.listen(backlog: 64)
        Thread { [self] in serve() }.start()
    }

    /// Serves `fetch`'s pages from now on.
    func serve(_ fetch: ModelFetch) {
        let bodies = fetch.pages.enumerated().map { ModelFeed.page($0.offset + 1, of: fetch.pages.count, $0.element) }
        state.withLock { ($0.pages, $0.failing) = (bodies, fetch.failAt) }
    }

    /// Ends the server thread within about 50 ms.
    func stop() { state.withLock { $0.stopped = true } }

    private func serve() {
        defer { close(listener) }
        while !state.withLock({ $0.stopped }) {
            guard LoopbackSocket.waitReadable(listener, timeout: 0.05) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            if let target = Self.requestTarget(connection) { LoopbackSocket.send(connection, response(to: target)) }
            close(connection)
        }
    }

    /// The page the request target asks for, or a 404.
    private func response(to target: String) -> [UInt8] {
        let number = URLComponents(string: target)?.queryItems?.first { $0.name == "page" }?.value.flatMap { Int($0) }
        // A page past the end is answered with the last page, as Flickr does (shared/reference, section 6).
        let body = state.withLock { state in
            number.flatMap { state.failing != $0 && $0 >= 1 && !state.pages.isEmpty ? state.pages[min($0, state.pages.count) - 1] : nil }
        }
        guard let body, target.hasPrefix("/rest") else { return Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8) }
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// The target of "GET /rest?...&page=2 HTTP/1.1", once the request head has arrived (within 10 s).
    private static func requestTarget(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            guard LoopbackSocket.waitReadable(connection, timeout: 0.05) else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        let words = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")[0].split(separator: " ")
        return words.count == 3 && words[0] == "GET" ? String(words[1]) : nil
    }
}

/// Pages of one fetch as JSON, page `n` (1-based) reporting `count` pages in all.
enum ModelFeed {
    static func page(_ number: Int, of count: Int, _ items: [ModelItem]) -> String {
        #"{"photos":{"page":\#(number),"pages":\#(count),"perpage":100,"total":\#(count * 100),"photo":["#
            + items.map(\.json).joined(separator: ",") + #"]},"stat":"ok"}"#
    }
}
