import Foundation
import Glibc

/// One `TestHTTPServer` connection on a thread of its own: read a request, answer it from the
/// routes, repeat while the client keeps the connection alive (HTTP/1.1 keep-alive).
/// Every wait lasts at most 50 ms, so the thread notices `stop()` promptly.
struct HTTPConnectionLoop: Sendable {
    let connection: Int32
    let routes: RouteTable
    let lifetime: ServerLifetime

    private static let headEnd = Array("\r\n\r\n".utf8)
    private static let maximumHead = 65_536

    func run() {
        defer { close(connection) }
        var received: [UInt8] = []
        while let head = readHead(&received) {
            guard let request = ParsedRequest(head) else {
                LoopbackSocket.send(connection, Self.encode(.status(400), includingBody: true))
                return
            }
            guard discardBody(length: request.contentLength, from: &received) else { return }
            let response = routes.respond(to: request.recorded)
            guard LoopbackSocket.send(connection, Self.encode(response, includingBody: request.recorded.method != "HEAD")),
                request.keepAlive
            else { return }
        }
    }

    /// The next request head (without the blank line); the bytes after it stay in `received`.
    /// Nil when the client left, the head is too long, or the server stopped.
    private func readHead(_ received: inout [UInt8]) -> String? {
        while !lifetime.isStopped, received.count <= Self.maximumHead {
            if let end = received.firstRange(of: Self.headEnd) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                received.removeSubrange(..<end.upperBound)
                return head
            }
            guard receive(into: &received) else { return nil }
        }
        return nil
    }

    /// Reads and drops a request body of `length` bytes; false when the client left first.
    private func discardBody(length: Int, from received: inout [UInt8]) -> Bool {
        while received.count < length {
            guard !lifetime.isStopped, receive(into: &received) else { return false }
        }
        received.removeFirst(length)
        return true
    }

    /// Appends what arrives within 50 ms; false when the client closed the connection.
    private func receive(into received: inout [UInt8]) -> Bool {
        guard LoopbackSocket.waitReadable(connection, timeout: 0.05) else { return true }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = recv(connection, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        received += buffer[..<count]
        return true
    }

    /// Status line, the response's headers, a Content-Length unless it set one, and the body.
    private static func encode(_ response: TestResponse, includingBody: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) Test\r\n"
        for (name, value) in response.headers {
            head += "\(name): \(value)\r\n"
        }
        if !response.headers.keys.contains(where: { $0.lowercased() == "content-length" }) {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        return Array((head + "\r\n").utf8) + (includingBody ? response.body : [])
    }
}

/// A request head parsed into what tests record, plus what the connection needs to go on.
private struct ParsedRequest {
    let recorded: RecordedRequest
    let contentLength: Int
    let keepAlive: Bool

    init?(_ head: String) {
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, let target = URLComponents(string: String(parts[1])) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            headers[pair[0].trimmingCharacters(in: .whitespaces).lowercased()] = pair[1].trimmingCharacters(in: .whitespaces)
        }
        let query = (target.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        recorded = RecordedRequest(
            method: String(parts[0]),
            path: URL(string: target.percentEncodedPath)?.standardized.path ?? target.path,
            query: Dictionary(query, uniquingKeysWith: { $1 }),
            headers: headers
        )
        contentLength = headers["content-length"].flatMap { Int($0) } ?? 0
        let connection = headers["connection"]?.lowercased()
        keepAlive = parts[2] == "HTTP/1.0" ? connection == "keep-alive" : connection != "close"
    }
}
