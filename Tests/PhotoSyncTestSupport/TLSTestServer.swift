import Foundation
import Glibc

/// A certificate authority made by `openssl` in a folder of its own, and server certificates it
/// signs: the real chain a TLS client verifies, without any system store knowing the CA.
/// `remove()` deletes the folder (keys included).
public struct TestCertificateAuthority: Sendable {
    /// A server certificate (`certificate`) and its private key, both PEM files.
    public struct Issued: Sendable {
        public let certificate: String
        public let key: String
    }

    public let directory: String
    /// The CA's certificate (PEM): what `--ca-file` is given.
    public var certificate: String { directory + "/ca.pem" }
    private var key: String { directory + "/ca.key" }

    /// A new CA named `name` (its subject CN), valid ten years.
    public init(name: String = "photosync test CA") async throws {
        directory = FileManager.default.temporaryDirectory.path + "/photosync-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try await Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", directory + "/ca.key", "-out", directory + "/ca.pem", "-days", "3650", "-subj", "/CN=\(name)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    /// A server certificate signed by this CA for `subjectAltName` (`IP:127.0.0.1`,
    /// `DNS:photos.example`), valid for `days` from now; a negative count makes one that expired
    /// `-days` days ago (openssl sets notAfter before notBefore's "now").
    public func issue(_ label: String, subjectAltName: String = "IP:127.0.0.1", days: Int = 30) async throws -> Issued {
        let base = directory + "/" + label
        try await Self.openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", base + ".key", "-out", base + ".csr", "-subj", "/CN=\(label)",
        ])
        try "subjectAltName=\(subjectAltName)\nextendedKeyUsage=serverAuth\n"
            .write(toFile: base + ".ext", atomically: true, encoding: .utf8)
        try await Self.openssl([
            "x509", "-req", "-in", base + ".csr", "-CA", certificate, "-CAkey", key, "-set_serial", "\(UInt32.random(in: 1...UInt32.max))",
            "-out", base + ".pem", "-days", "\(days)", "-extfile", base + ".ext",
        ])
        return Issued(certificate: base + ".pem", key: base + ".key")
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func openssl(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.runOneAtATime()
        let (status, stderr) = await runOnDedicatedThread { () -> (Int32, String) in
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        guard status == 0 else { throw TLSTestError("openssl \(arguments.first ?? "") exited \(status): \(stderr)") }
    }
}

/// `Fixtures/serve_feed.py --fixtures Fixtures/feed` over HTTPS with `certificate`, as a child
/// process on 127.0.0.1 (Python's ssl module: a TLS stack that is not the client's). It lives until
/// `stop()` or until it is released.
public final class TLSFeedServer: Sendable {
    private let server: FeedServerProcess
    public var port: Int { server.port }
    /// `https://127.0.0.1:PORT/rest`.
    public var url: String { "https://127.0.0.1:\(port)/rest" }

    private init(_ server: FeedServerProcess) { self.server = server }

    public static func start(_ certificate: TestCertificateAuthority.Issued, fixtures: String = packageRoot + "/Fixtures/feed") async throws -> TLSFeedServer {
        TLSFeedServer(try await FeedServerProcess.start(["--fixtures", fixtures, "--tls-cert", certificate.certificate, "--tls-key", certificate.key]))
    }

    public func stop() { server.stop() }
}

public struct TLSTestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
