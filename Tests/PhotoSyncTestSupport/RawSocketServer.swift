import Foundation
import Glibc
import Synchronization

/// A deliberately misbehaving HTTP server on 127.0.0.1 for the faults a
/// well-behaved server library cannot produce: silence, resets, short or
/// endless bodies, arbitrary raw bytes.
///
/// One background thread accepts and serves connections one at a time with
/// the same `Behaviour`. It lives as long as the test needs it: until `stop()`
/// (every test defers one) or deinit, never on a clock of its own, which a
/// loaded machine could outrun. Each wait inside lasts at most 50 ms.
public final class RawSocketServer: Sendable {
    public enum Behaviour: Sendable, Equatable {
        /// Never accepts and keeps its accept queue full, so new connections
        /// stall in the TCP handshake: for connect timeouts.
        case neverAccept
        /// Reads the request, never answers, keeps the connection open until the client leaves.
        case neverRespond
        /// Accepts and closes at once without a byte: an "empty reply".
        case closeImmediately
        /// Reads the request, sends these bytes, closes normally.
        case send([UInt8])
        /// Sends these bytes for every request on a connection, keeping it open (HTTP keep-alive)
        /// until the client closes it.
        case sendToEveryRequest([UInt8])
        /// Answers the requests on a connection with these responses in turn (the last one
        /// repeats), keeping it open until the client closes it.
        case sendInTurn([[UInt8]])
        /// Sends these bytes as soon as a client connects, without reading, then closes:
        /// e.g. plain HTTP to a client expecting TLS.
        case sendWithoutReading([UInt8])
        /// Reads the request, sends these bytes, then resets the connection (RST).
        case sendThenReset([UInt8])
        /// Sends `head`, then `chunk` every `interval` seconds until the client leaves.
        case trickle(head: [UInt8], chunk: [UInt8], interval: Double)

        /// A 200 announcing `declaredLength` body bytes but sending `sentLength`, then closing.
        public static func truncatedBody(declaredLength: Int, sentLength: Int) -> Behaviour {
            .send(head(contentLength: declaredLength) + Array(repeating: UInt8(ascii: "x"), count: sentLength))
        }

        /// Like `truncatedBody`, but the connection is reset mid-body.
        public static func resetMidBody(declaredLength: Int, sentLength: Int) -> Behaviour {
            .sendThenReset(head(contentLength: declaredLength) + Array(repeating: UInt8(ascii: "x"), count: sentLength))
        }

        /// A chunked 200 whose body never ends: one byte every 50 ms.
        public static var endlessBody: Behaviour {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            return .trickle(head: Array(head.utf8), chunk: Array("1\r\n \r\n".utf8), interval: 0.05)
        }

        private static func head(contentLength: Int) -> [UInt8] {
            Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(contentLength)\r\n\r\n".utf8)
        }
    }

    public let port: UInt16
    /// "http://127.0.0.1:PORT", no trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    private let control = Control()

    /// Starts listening and serving at once.
    public init(_ behaviour: Behaviour) throws {
        let (fd, port) = try LoopbackSocket.listen(backlog: behaviour == .neverAccept ? 0 : 16)
        self.port = port
        // Linux queues backlog + 1 connections and drops SYNs beyond that.
        let fillers = behaviour == .neverAccept ? (0..<2).map { _ in LoopbackSocket.startConnecting(to: port) } : []
        let connection = ConnectionLoop(listener: fd, fillers: fillers, behaviour: behaviour, control: control)
        Thread { connection.run() }.start()
    }

    deinit {
        control.stop()
    }

    /// Connections accepted so far: one per client attempt.
    public var connectionCount: Int {
        control.connectionCount
    }

    /// Makes the thread close everything within about 50 ms.
    public func stop() {
        control.stop()
    }
}

/// State shared between the server object and its thread.
private final class Control: Sendable {
    private let state = Mutex((stopped: false, connections: 0))

    var isStopped: Bool { state.withLock { $0.stopped } }
    var connectionCount: Int { state.withLock { $0.connections } }
    func stop() { state.withLock { $0.stopped = true } }
    func countConnection() { state.withLock { $0.connections += 1 } }
}

/// The server thread's work: accept, misbehave, repeat until stopped.
private struct ConnectionLoop: Sendable {
    let listener: Int32
    /// Our own connections that keep a `.neverAccept` queue full.
    let fillers: [Int32]
    let behaviour: RawSocketServer.Behaviour
    let control: Control

    private static let tick = 0.05

    private var shouldRun: Bool { !control.isStopped }

    func run() {
        defer {
            close(listener)
            fillers.forEach { close($0) }
        }
        while shouldRun {
            guard behaviour != .neverAccept else {
                usleep(UInt32(Self.tick * 1_000_000))
                continue
            }
            guard LoopbackSocket.waitReadable(listener, timeout: Self.tick) else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            control.countConnection()
            serve(connection)
        }
    }

    private func serve(_ connection: Int32) {
        switch behaviour {
        case .neverAccept, .closeImmediately:
            close(connection)
        case .neverRespond:
            readRequest(connection)
            waitForPeerToLeave(connection, sending: nil, interval: Self.tick)
            close(connection)
        case .send(let bytes):
            readRequest(connection)
            LoopbackSocket.send(connection, bytes)
            close(connection)
        case .sendToEveryRequest(let bytes):
            while readRequest(connection) { LoopbackSocket.send(connection, bytes) }
            close(connection)
        case .sendInTurn(let responses):
            var next = 0
            while !responses.isEmpty, readRequest(connection) {
                LoopbackSocket.send(connection, responses[min(next, responses.count - 1)])
                next += 1
            }
            close(connection)
        case .sendWithoutReading(let bytes):
            LoopbackSocket.send(connection, bytes)
            close(connection)
        case .sendThenReset(let bytes):
            readRequest(connection)
            LoopbackSocket.send(connection, bytes)
            LoopbackSocket.reset(connection)
        case .trickle(let head, let chunk, let interval):
            readRequest(connection)
            LoopbackSocket.send(connection, head)
            waitForPeerToLeave(connection, sending: chunk, interval: interval)
            close(connection)
        }
    }

    /// Reads until the blank line ending the request head (GETs carry no body); false when the
    /// client left (or the server stopped) first.
    @discardableResult
    private func readRequest(_ connection: Int32) -> Bool {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while shouldRun, received.count < 65_536 {
            if received.ends(with: Array("\r\n\r\n".utf8)) { return true }
            guard LoopbackSocket.waitReadable(connection, timeout: Self.tick) else { continue }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return false }
            received += buffer[..<count]
        }
        return false
    }

    /// Holds the connection (optionally sending `chunk` every `interval`)
    /// until the client closes it or the server stops.
    private func waitForPeerToLeave(_ connection: Int32, sending chunk: [UInt8]?, interval: Double) {
        var scratch = [UInt8](repeating: 0, count: 1024)
        while shouldRun {
            if LoopbackSocket.waitReadable(connection, timeout: interval) {
                guard recv(connection, &scratch, scratch.count, 0) > 0 else { return }
            } else if let chunk, !LoopbackSocket.send(connection, chunk) {
                return
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
