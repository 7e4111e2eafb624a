import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// `PHOTOSYNC_SLOW_FAULTS=1` (set by `make test-faults`) turns on the slow tests; without it they
/// report as skipped, never as passed.
let slowFaults = ProcessInfo.processInfo.environment["PHOTOSYNC_SLOW_FAULTS"] == "1"
let slowOnly = Testing.ConditionTrait.enabled(if: slowFaults, "slow fault test: set PHOTOSYNC_SLOW_FAULTS=1 (make test-faults)")

/// The package root: the nearest directory above this file holding Package.swift.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        url.deleteLastPathComponent()
    }
    fatalError("Package.swift not found above \(#filePath)")
}()

/// The built `photosync` binary run as a child process in a private temporary directory, with a
/// clean environment (PATH, HOME and XDG pointing into the sandbox) plus what a test adds.
struct Sandbox: Sendable {
    struct Result: Sendable, CustomStringConvertible {
        var status: Int32
        /// True when the process died of a signal (`status` is then the signal number).
        var signalled: Bool
        var stdout: String
        var stderr: String

        var description: String { "status \(status)\(signalled ? " (signal)" : "")\n--- stdout\n\(stdout.prefix(2000))--- stderr\n\(stderr.prefix(2000))" }
        var stderrLines: [Substring] { stderr.split(whereSeparator: \.isNewline) }

        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
        func object() throws -> [String: Any] {
            try #require(try json() as? [String: Any], "stdout is not a JSON object: \(self)")
        }
        func array() throws -> [[String: Any]] {
            try #require(try json() as? [[String: Any]], "stdout is not a JSON array: \(self)")
        }
    }

    let directory: String
    var db: String { directory + "/catalog.sqlite" }

    init() throws {
        directory = FileManager.default.temporaryDirectory.path + "/photosync-faults-" + UUID().uuidString
        for sub in ["home", "data", "config"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
    }

    static let binary = packageRoot + "/.build/debug/photosync"

    func environment(_ extra: [String: String]) -> [String: String] {
        var env = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory + "/home",
            "XDG_DATA_HOME": directory + "/data",
            "XDG_CONFIG_HOME": directory + "/config",
        ]
        env.merge(extra) { $1 }
        return env
    }

    /// A started run; `wait()` blocks, so call it through `runOnDedicatedThread`.
    final class Running: @unchecked Sendable {
        let process: Process
        let outPath: String
        let errPath: String

        init(process: Process, outPath: String, errPath: String) {
            self.process = process
            self.outPath = outPath
            self.errPath = errPath
        }

        var pid: pid_t { process.processIdentifier }

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        func wait() -> Result {
            process.waitUntilExit()
            let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            return Result(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                          stdout: out, stderr: err)
        }

        func finish() async -> Result { await runOnDedicatedThread { self.wait() } }
    }

    /// Starts `photosync args` (prefixed by `prefix`, e.g. setpriv) with output captured to files.
    func start(_ args: [String], environment extra: [String: String] = [:], prefix: [String] = []) throws -> Running {
        let id = UUID().uuidString
        let outPath = directory + "/\(id).out"
        let errPath = directory + "/\(id).err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        let command = prefix + [Self.binary] + args
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment(extra)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        return Running(process: process, outPath: outPath, errPath: errPath)
    }

    func run(_ args: [String], environment extra: [String: String] = [:], prefix: [String] = []) async throws -> Result {
        let running = try start(args, environment: extra, prefix: prefix)
        return await running.finish()
    }

    /// `run` with `--db <sandbox catalog>` appended.
    func callAsFunction(_ args: String..., environment extra: [String: String] = [:]) async throws -> Result {
        try await run(args + ["--db", db], environment: extra)
    }

    /// The catalog's photo ids (via `list --format json`).
    func ids() async throws -> Set<String> {
        let list = try await self("list", "--format", "json")
        #expect(list.status == 0, "\(list)")
        return Set(try list.array().compactMap { $0["id"] as? String })
    }

    func fileBytes(_ path: String? = nil) -> Data? {
        FileManager.default.contents(atPath: path ?? db)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Runs `body` with a fresh sandbox, removed afterwards.
func withSandbox<T>(_ body: (Sandbox) async throws -> T) async throws -> T {
    let sandbox = try Sandbox()
    defer { sandbox.remove() }
    return try await body(sandbox)
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
