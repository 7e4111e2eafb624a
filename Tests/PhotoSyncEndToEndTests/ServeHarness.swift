import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// `photosync serve --port 0` running over a sandbox's catalog, and a raw HTTP/1.1 client for it
/// (raw, so a test can send `..`, `%2e%2e%2f` and NUL as they are: URL libraries clean them up).
struct ServedGallery {
    let running: PhotoSync.Running
    let port: UInt16
    /// The URL serve printed (with `?token=` when one is needed).
    let announced: String
    var base: String { "http://127.0.0.1:\(port)/" }

    static func start(_ photosync: PhotoSync, _ args: [String] = [], environment: [String: String] = [:]) async throws -> ServedGallery {
        let running = try photosync.start(["serve", "--port", "0", "--db", photosync.db] + args, environment: environment)
        for _ in 0..<2400 {  // two minutes: the whole suite shares two cores
            if let line = running.stdoutSoFar.split(separator: "\n").first(where: { $0.hasPrefix("serving the catalog at ") }) {
                let url = String(line.dropFirst("serving the catalog at ".count).split(separator: " ")[0])
                let port = UInt16(url.split(separator: ":")[2].prefix { $0.isNumber })!
                return ServedGallery(running: running, port: port, announced: url)
            }
            if !running.process.isRunning { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        running.signal(SIGKILL)
        let result = await running.finish()
        Issue.record("serve did not start: \(result)")
        throw CancellationError()
    }

    /// SIGTERM, then the exit.
    func stop() async -> PhotoSync.Result {
        running.signal(SIGTERM)
        return await running.finish()
    }

    /// One request on its own connection: `target` is sent byte for byte.
    func request(_ target: String, method: String = "GET", headers: [String: String] = [:]) async throws -> RawResponse {
        let port = port
        let text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        let bytes = await runOnDedicatedThread { RawResponse.exchange(Array(text.utf8), port: port) }
        return try #require(bytes.flatMap(RawResponse.init), "no HTTP response to \(method) \(target)")
    }
}

/// A response as it came off the socket.
struct RawResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    init?(_ bytes: [UInt8]) {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let code = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
        status = code
        headers = Dictionary(lines.dropFirst().compactMap { line in
            line.firstIndex(of: ":").map { (line[..<$0].lowercased(), line[line.index(after: $0)...].trimmingCharacters(in: .whitespaces)) }
        }, uniquingKeysWith: { first, _ in first })
        body = Array(bytes[end.upperBound...])
    }

    /// Sends `request` to 127.0.0.1:`port` and reads until the server closes (20 s at most).
    static func exchange(_ request: [UInt8], port: UInt16) -> [UInt8]? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian,
                                  sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return received
    }
}
