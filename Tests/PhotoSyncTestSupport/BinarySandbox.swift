import Foundation
import Glibc

/// The built `photosync` binary run as a child process in a private temporary directory, with a
/// clean environment (PATH, HOME and XDG pointing into the sandbox) plus what a test adds.
/// `db` is the sandbox's catalog path.
public struct BinarySandbox: Sendable {
    public struct Result: Sendable, CustomStringConvertible {
        public var status: Int32
        /// True when the process died of a signal (`status` is then the signal number).
        public var signalled: Bool
        public var stdout: String
        public var stderr: String

        public var description: String {
            "status \(status)\(signalled ? " (signal)" : "")\n--- stdout\n\(stdout.prefix(2000))--- stderr\n\(stderr.prefix(2000))"
        }

        /// Non-empty stderr lines.
        public var stderrLines: [Substring] { stderr.split(whereSeparator: \.isNewline) }

        /// stdout parsed as JSON.
        public func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    }

    /// A started run; `wait()` blocks, so call it through `runOnDedicatedThread` (or use `finish()`).
    public final class Running: @unchecked Sendable {
        public let process: Process
        let outPath: String
        let errPath: String

        init(process: Process, outPath: String, errPath: String) {
            self.process = process
            self.outPath = outPath
            self.errPath = errPath
        }

        public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// What the process wrote to stdout so far.
        public var stdoutSoFar: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

        /// What the process wrote to stderr so far.
        public var stderrSoFar: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

        public func wait() -> Result {
            process.waitUntilExit()
            ChildReaper.release(process)
            let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            return Result(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                          stdout: out, stderr: err)
        }

        /// Waits on a dedicated thread, so an in-process server keeps serving.
        public func finish() async -> Result { await runOnDedicatedThread { self.wait() } }
    }

    public static let binary = packageRoot + "/.build/debug/photosync"

    public let directory: String
    /// The catalog `callAsFunction` passes as `--db`: a file in the sandbox, or a PostgreSQL URL.
    public var db: String { postgres?.url ?? directory + "/catalog.sqlite" }
    /// The PostgreSQL catalog, for a sandbox made with `postgres: true`.
    public let postgres: PostgresTestCatalog?
    /// Variables every run of this sandbox gets (a run's own win over them).
    public let baseEnvironment: [String: String]

    /// For a feed served by a server inside the test process (`TestHTTPServer`): with the whole
    /// suite on two cores it can take longer than the default 30 s to answer, and a retried request
    /// would be counted twice. Tests of timeouts pass their own --timeout, which wins. Other tests
    /// run with the default, as users do.
    public static let inProcessServerEnvironment = ["PHOTOSYNC_TIMEOUT": "600"]

    public init(label: String = "photosync-test", postgres: Bool = false, environment: [String: String] = [:]) throws {
        self.postgres = postgres ? try PostgresTestCatalog() : nil
        baseEnvironment = environment
        directory = FileManager.default.temporaryDirectory.path + "/\(label)-" + UUID().uuidString
        for sub in ["home", "data", "config"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + sub, withIntermediateDirectories: true)
        }
    }

    public func environment(_ extra: [String: String]) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory + "/home",
            "XDG_DATA_HOME": directory + "/data",
            "XDG_CONFIG_HOME": directory + "/config",
        ]
        environment.merge(baseEnvironment) { $1 }
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `photosync args` (behind `prefix`, e.g. setpriv) with stdout and stderr captured to files.
    public func start(_ args: [String], environment extra: [String: String] = [:], prefix: [String] = []) throws -> Running {
        try start(command: prefix + [Self.binary] + args, environment: extra)
    }

    /// Starts `command` as given (a shell around photosync, say) in the sandbox's environment.
    public func start(command: [String], environment extra: [String: String] = [:]) throws -> Running {
        let id = UUID().uuidString
        let outPath = directory + "/\(id).out"
        let errPath = directory + "/\(id).err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment(extra)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.runOneAtATime()
        ChildReaper.watch(process)
        return Running(process: process, outPath: outPath, errPath: errPath)
    }

    /// Runs `photosync args` to completion: started on the caller's thread, awaited on a thread of
    /// its own (waiting would hold one of Swift's two cooperative threads for the whole run).
    public func run(_ args: [String], environment extra: [String: String] = [:], prefix: [String] = []) async throws -> Result {
        try await run(command: prefix + [Self.binary] + args, environment: extra)
    }

    /// `command` as given (a shell around photosync, say) run to completion as `run` does.
    public func run(command: [String], environment extra: [String: String] = [:]) async throws -> Result {
        // Spawned here, awaited on a thread of its own: Foundation's `Process.run()` over-reads a
        // buffer (swift-corelibs-foundation #5472), which faults when that buffer tops a young
        // thread's malloc arena, as on a fresh dedicated thread (CI crashed there twice).
        let running = try start(command: command, environment: extra)
        return await runOnDedicatedThread { running.wait() }
    }

    /// A sandbox made on a thread of its own: a PostgreSQL one runs `psql` to create its schema.
    public static func made(label: String = "photosync-test", postgres: Bool = false, environment: [String: String] = [:]) async throws
        -> BinarySandbox
    {
        try await runOnDedicatedThread { Swift.Result { try BinarySandbox(label: label, postgres: postgres, environment: environment) } }.get()
    }

    /// `run` with `--db <sandbox catalog>` appended.
    public func callAsFunction(_ args: String..., environment extra: [String: String] = [:]) async throws -> Result {
        try await run(args + ["--db", db], environment: extra)
    }

    /// A file's bytes (the catalog's by default), to prove it was left untouched.
    public func fileBytes(_ path: String? = nil) -> Data? {
        FileManager.default.contents(atPath: path ?? db)
    }

    /// Everything the catalog stores, to look for what must never be stored (the API key): for a
    /// SQLite catalog the bytes of the file, its `-wal` and `-shm` and the `.lock`, by suffix; for a
    /// PostgreSQL one every row of every table of its schema (`pg_dump --data-only`).
    public func storedBytes() throws -> [String: Data] {
        if let postgres { return ["pg_dump of \(postgres.schema)": Data(try postgres.dataDump().utf8)] }
        var stored: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", ".lock"] {
            if let bytes = FileManager.default.contents(atPath: db + suffix) { stored["catalog" + suffix] = bytes }
        }
        return stored
    }

    /// Deletes the folder and drops the PostgreSQL schema.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
        postgres?.drop()
    }

    /// `remove()` on a thread of its own (`psql` and a folder walk block).
    public func removed() async {
        await runOnDedicatedThread { remove() }
    }
}
