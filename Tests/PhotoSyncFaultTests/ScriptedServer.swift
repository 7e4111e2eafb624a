import Foundation
import Glibc
import PhotoSyncTestSupport
import Synchronization

/// A raw HTTP/1.1 server on 127.0.0.1 that answers each request by its `page` query parameter,
/// so page 1 can be served properly and page 2 can misbehave in any way a socket allows.
/// Every connection gets its own thread and is closed after one answer (`Connection: close`).
/// Everything stops on `stop()` or after `lifetime` seconds.
final class ScriptedServer: Sendable {
    enum Answer: Sendable {
        /// Sends the bytes and closes.
        case bytes([UInt8])
        /// Sends the bytes, then resets the connection (RST).
        case bytesThenReset([UInt8])
        /// Reads the request and never answers; holds the connection until the client leaves.
        case silence
        /// Sends `head`, then `chunk` every `interval` seconds until the client leaves.
        case trickle(head: [UInt8], chunk: [UInt8], interval: Double)
        /// Closes without a byte.
        case close

        static func http(_ status: Int, headers: [String: String] = [:], body: [UInt8] = []) -> Answer {
            var head = "HTTP/1.1 \(status) Scripted\r\nConnection: close\r\n"
            var headers = headers
            if headers["Content-Length"] == nil { headers["Content-Length"] = "\(body.count)" }
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            return .bytes(Array((head + "\r\n").utf8) + body)
        }

        static func json(_ text: String) -> Answer {
            .http(200, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
        }
    }

    let port: UInt16
    var url: String { "http://127.0.0.1:\(port)/rest" }
    private let state = Mutex((stopped: false, requests: [Int]()))
    private let listener: Int32
    private let deadline: ContinuousClock.Instant

    /// `answer` gets the page number (0 when absent) and the request's 1-based count for that page.
    init(lifetime: Double = 600, _ answer: @escaping @Sendable (_ page: Int, _ attempt: Int) -> Answer) throws {
        let (fd, port) = try LoopbackSocket.listen()
        self.port = port
        listener = fd
        deadline = .now + .milliseconds(Int(lifetime * 1000))
        Thread { [self] in acceptLoop(answer) }.start()
    }

    deinit { stop() }

    func stop() { state.withLock { $0.stopped = true } }

    /// Page numbers requested so far, in arrival order.
    var requestedPages: [Int] { state.withLock { $0.requests } }

    private var running: Bool { !state.withLock { $0.stopped } && .now < deadline }

    private func acceptLoop(_ answer: @escaping @Sendable (Int, Int) -> Answer) {
        defer { close(listener) }
        while running {
            guard readable(listener, timeout: 0.05) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread { [self] in
                defer { close(connection) }
                guard let page = readRequest(connection) else { return }
                let attempt = state.withLock { state in
                    state.requests.append(page)
                    return state.requests.filter { $0 == page }.count
                }
                serve(connection, answer(page, attempt))
            }.start()
        }
    }

    private func serve(_ connection: Int32, _ answer: Answer) {
        switch answer {
        case .bytes(let bytes):
            send(connection, bytes)
            shutdown(connection, Int32(SHUT_WR))
            drain(connection)
        case .bytesThenReset(let bytes):
            send(connection, bytes)
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        case .silence:
            hold(connection, chunk: nil, interval: 0.05)
        case .trickle(let head, let chunk, let interval):
            send(connection, head)
            hold(connection, chunk: chunk, interval: interval)
        case .close:
            break
        }
    }

    /// The `page` parameter of the request line, 0 when absent; nil when the client left first.
    private func readRequest(_ connection: Int32) -> Int? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while running, received.count < 65_536 {
            if let end = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let target = head.split(separator: " ").dropFirst().first ?? ""
                let query = target.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
                for pair in query.split(separator: "&") where pair.hasPrefix("page=") {
                    return Int(pair.dropFirst(5)) ?? 0
                }
                return 0
            }
            guard readable(connection, timeout: 0.05) else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        return nil
    }

    private func hold(_ connection: Int32, chunk: [UInt8]?, interval: Double) {
        var scratch = [UInt8](repeating: 0, count: 1024)
        while running {
            if readable(connection, timeout: interval) {
                guard recv(connection, &scratch, scratch.count, 0) > 0 else { return }
            } else if let chunk, !send(connection, chunk) {
                return
            }
        }
    }

    /// Waits (briefly) for the client to close after a complete answer, so a close never turns into an RST.
    private func drain(_ connection: Int32) {
        var scratch = [UInt8](repeating: 0, count: 1024)
        for _ in 0..<40 where running {
            guard readable(connection, timeout: 0.05) else { continue }
            if recv(connection, &scratch, scratch.count, 0) <= 0 { return }
        }
    }

    @discardableResult
    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool { LoopbackSocket.send(fd, bytes) }

    private func readable(_ fd: Int32, timeout: Double) -> Bool { LoopbackSocket.waitReadable(fd, timeout: timeout) }
}
