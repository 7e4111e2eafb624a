import Foundation
import Glibc

/// `Fixtures/serve_feed.py ARGUMENTS --port 0` as a child process on 127.0.0.1: started (spawn
/// included) off the cooperative pool, its port read from the first line it prints. It lives
/// until `stop()` or until it is released. The one launcher of that script for every test server.
public final class FeedServerProcess: @unchecked Sendable {
    public let port: Int
    private let process: Process

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    public static func start(_ arguments: [String]) async throws -> FeedServerProcess {
        let started = await runOnDedicatedThread { () -> Result<FeedServerProcess, any Error> in
            Result { try launch(arguments) }
        }
        return try started.get()
    }

    private static func launch(_ arguments: [String]) throws -> FeedServerProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot + "/Fixtures/serve_feed.py"] + arguments + ["--port", "0"]
        let pipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.runOneAtATime()
        ChildReaper.watch(process)
        var bytes: [UInt8] = []
        while let chunk = try? pipe.fileHandleForReading.read(upToCount: 1), let byte = chunk.first, byte != 10 { bytes.append(byte) }
        let line = String(decoding: bytes, as: UTF8.self)
        guard let port = Int(line) else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            ChildReaper.release(process)
            throw FeedServerError("serve_feed.py \(arguments.first ?? "") did not print a port (got \(line.debugDescription))")
        }
        return FeedServerProcess(port: port, process: process)
    }

    /// SIGKILL, not SIGTERM: a child started by Foundation's Process may inherit a signal mask
    /// that blocks SIGTERM, and the server holds no state worth a clean exit.
    public func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        ChildReaper.release(process)
    }

    deinit { stop() }
}

public struct FeedServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
