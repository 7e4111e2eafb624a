import Foundation

/// A PostgreSQL server of one test's own (Tests/postgres/cluster.sh, nested), for what the shared
/// test server must not undergo while other tests use it: a restart in the middle of a fetch.
public final class PrivatePostgresServer: Sendable {
    /// `postgresql://ROLE:PASSWORD@127.0.0.1:PORT/photosync_test`.
    public let url: String
    /// The file whose creation asks the server's script for a restart; it deletes it when done.
    private let restartRequest: String
    private let cluster: Process

    /// The script cluster.sh runs: writes the URL where `$1` says, restarts the server
    /// (`pg_ctl restart -m fast`, as the data folder's owner) whenever `$1.restart` appears, and
    /// ends when the test process (`$2`) is gone.
    private static let script = #"""
        printf '%s\n' "$PHOTOSYNC_TEST_POSTGRES_URL" > "$1.tmp" && mv "$1.tmp" "$1"
        owner=$(stat -c %U "$PHOTOSYNC_TEST_POSTGRES_DATA")
        while kill -0 "$2" 2>/dev/null; do
            if [ -e "$1.restart" ]; then
                if [ "$(id -u)" = 0 ]; then runuser -u "$owner" -- "$PHOTOSYNC_TEST_POSTGRES_BIN/pg_ctl" restart -D "$PHOTOSYNC_TEST_POSTGRES_DATA" -m fast -w -t 60 >/dev/null 2>&1
                else "$PHOTOSYNC_TEST_POSTGRES_BIN/pg_ctl" restart -D "$PHOTOSYNC_TEST_POSTGRES_DATA" -m fast -w -t 60 >/dev/null 2>&1; fi
                rm -f "$1.restart"
            fi
            sleep 0.1
        done
        """#

    /// Starts the server (it lives until ``stop()``, or until the test process is gone); fails
    /// (never skips) when it does not come up within two minutes. Blocks: call it off Swift's
    /// cooperative threads.
    public init() throws {
        let info = FileManager.default.temporaryDirectory.path + "/pg-private-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: info) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: packageRoot + "/Tests/postgres/cluster.sh")
        process.arguments = ["run", "--", "sh", "-c", Self.script, "sh", info, "\(getpid())"]
        var environment = ProcessInfo.processInfo.environment
        environment["PHOTOSYNC_TEST_POSTGRES_URL"] = nil
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runOneAtATime()
        cluster = process
        restartRequest = info + ".restart"
        let deadline = Date() + 120
        while !FileManager.default.fileExists(atPath: info) && process.isRunning && Date() < deadline { usleep(100_000) }
        guard let line = try? String(contentsOfFile: info, encoding: .utf8), line.hasPrefix("postgres") else {
            process.terminate()
            throw PostgresTestError("the private PostgreSQL server did not start (Tests/postgres/cluster.sh)")
        }
        url = line.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pg_ctl restart -m fast`: every connection ends; the server comes back on the same port.
    /// Blocks until it is back (at most two minutes).
    public func restart() throws {
        FileManager.default.createFile(atPath: restartRequest, contents: nil)
        let deadline = Date() + 120
        while FileManager.default.fileExists(atPath: restartRequest) && Date() < deadline { usleep(50_000) }
        guard !FileManager.default.fileExists(atPath: restartRequest) else { throw PostgresTestError("the server did not restart") }
    }

    /// Stops the server and deletes its folder: cluster.sh does both on SIGTERM, in the background.
    public func stop() {
        if cluster.isRunning { cluster.terminate() }
    }

    deinit { stop() }
}
