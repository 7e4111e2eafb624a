import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// `serve --timeout` and `--max-connections`: idle and slow clients are closed, and past the cap a
/// new connection gets 503 while the others still work.
@Suite(.serialized, .onTestThreads)
struct ServeLimitsTests {
    let http = ServeHTTPTests()

    /// A blocking connection to 127.0.0.1:`port` that sent `bytes`; -1 on failure.
    static func connect(_ port: UInt16, sending bytes: String = "") -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return -1 }
        if !bytes.isEmpty { _ = bytes.withCString { send(fd, $0, strlen($0), 0) } }
        return fd
    }

    /// Seconds until the server closes `fd` (reading and dropping whatever it sends), or nil after 20 s.
    static func secondsUntilClosed(_ fd: Int32) -> Double? {
        let start = Date()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return Date().timeIntervalSince(start) }
            if count < 0 { return nil }
        }
    }

    @Test func idleAndTricklingClientsAreClosedAfterTheTimeout() async throws {
        try await http.withGallery(args: ["--timeout", "1"]) { _, gallery in
            let port = gallery.port
            let idle = await runOnDedicatedThread { () -> Double? in
                let fd = Self.connect(port)
                defer { close(fd) }
                return Self.secondsUntilClosed(fd)
            }
            let trickling = await runOnDedicatedThread { () -> Double? in
                let fd = Self.connect(port, sending: "GET / HTTP/1.1\r\nHost: x\r\n")
                defer { close(fd) }
                for _ in 0..<3 {  // one header line every 0.4 s never completes the head in time
                    usleep(400_000)
                    _ = "X-Slow: 1\r\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                }
                return Self.secondsUntilClosed(fd)
            }
            #expect(idle.map { $0 < 15 } == true, "idle: \(String(describing: idle))")
            #expect(trickling.map { $0 < 15 } == true, "trickling: \(String(describing: trickling))")
            let after = try await gallery.request("/api/status")
            #expect(after.status == 200)
        }
    }

    @Test func pastTheConnectionCapANewClientGets503() async throws {
        try await http.withGallery(args: ["--max-connections", "2"]) { _, gallery in
            let port = gallery.port
            let held = await runOnDedicatedThread { [Self.connect(port), Self.connect(port)] }
            try await Task.sleep(for: .milliseconds(500))
            let refused = try await gallery.request("/")
            #expect(refused.status == 503)
            await runOnDedicatedThread { held.forEach { close($0) } }
            try await Task.sleep(for: .milliseconds(500))
            let again = try await gallery.request("/")
            #expect(again.status == 200)
        }
    }
}
