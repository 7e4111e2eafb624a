import Foundation
import Glibc

/// nghttp2's `nghttpd` (Debian's nghttp2-server, installed by `make setup-test`) serving a folder
/// over TLS on 127.0.0.1: an HTTP/2-only server that is not the client's stack. It speaks nothing
/// but h2, and its verbose log (`log`) names the protocol each connection negotiated
/// (`The negotiated protocol: h2`) and every stream's `:path`, by connection (`[id=N]`).
public final class H2FileServer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let logPath: String

    /// `https://127.0.0.1:PORT`.
    public var baseURL: String { "https://127.0.0.1:\(port)" }

    private init(port: Int, process: Process, logPath: String) {
        (self.port, self.process, self.logPath) = (port, process, logPath)
    }

    /// Serves `folder` with `certificate`; the log goes to `folder`'s sibling `<folder>.nghttpd.log`.
    public static func start(serving folder: String, _ certificate: TestCertificateAuthority.Issued) async throws -> H2FileServer {
        let started = await runOnDedicatedThread { () -> Result<H2FileServer, any Error> in
            Result {
                var failure: (any Error)?
                // The port is picked free just before nghttpd binds it: try again if another took it.
                for _ in 0..<3 {
                    do { return try launch(folder, certificate) } catch { failure = error }
                }
                throw failure!
            }
        }
        return try started.get()
    }

    private static func launch(_ folder: String, _ certificate: TestCertificateAuthority.Issued) throws -> H2FileServer {
        let (socket, port) = try LoopbackSocket.listen()
        close(socket)
        let logPath = folder + ".nghttpd.log"
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nghttpd", "--address=127.0.0.1", "--htdocs=" + folder, "--verbose", "\(port)", certificate.key, certificate.certificate]
        process.standardInput = FileHandle.nullDevice
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        (process.standardOutput, process.standardError) = (log, log)
        do { try process.runOneAtATime() } catch {
            throw TLSTestError("cannot start nghttpd (install nghttp2-server: make setup-test): \(error)")
        }
        let server = H2FileServer(port: Int(port), process: process, logPath: logPath)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if server.log.contains("listen 127.0.0.1:\(port)") { return server }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        server.stop()
        throw TLSTestError("nghttpd did not listen on 127.0.0.1:\(port): \(server.log)")
    }

    /// Everything nghttpd logged so far.
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// The connections' ids (`[id=N]`) on which each path was requested.
    public func connections(requesting path: String) -> Set<String> {
        Set(log.split(separator: "\n").filter { $0.hasSuffix(":path: \(path)") }.compactMap { line in
            line.hasPrefix("[id=") ? line.split(separator: "]").first.map { String($0.dropFirst(4)) } : nil
        })
    }

    /// SIGKILL (see `FeedServerProcess.stop`).
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
