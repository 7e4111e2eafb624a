import Foundation
import Glibc

/// The test process's children die with it, however it dies (SIGKILL, a crash, a CI timeout):
/// `Tests/reaper/reaper.py`, started once, reads `+PID`/`-PID` lines from a socket whose other end
/// only this process holds, and kills the children still listed when it reaches EOF.
/// Left to themselves, `photosync serve` and `serve_feed.py` outlived killed test runs.
///
/// Not `PR_SET_PDEATHSIG`: it fires when the spawning *thread* ends, and tests spawn from threads
/// that end long before their servers. Nothing of this is in the product.
public enum ChildReaper {
    /// This process's end of the socket pair (close-on-exec, so no child holds it open); nil if the
    /// reaper did not start.
    private static let writeEnd: Int32? = startReaper()

    /// Lists `process` (started) to be killed if the test process dies first.
    public static func watch(_ process: Process) { send("+ \(process.processIdentifier)\n") }

    /// Takes `process` (waited for) off the list.
    public static func release(_ process: Process) { send("- \(process.processIdentifier)\n") }

    private static func send(_ line: String) {
        guard let writeEnd else { return }
        // Shorter than a socket buffer: one write, never interleaved with another thread's.
        // MSG_NOSIGNAL: a reaper gone fails the write instead of raising SIGPIPE.
        _ = line.withCString { Glibc.send(writeEnd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// A socket pair rather than a pipe, for MSG_NOSIGNAL: ignoring SIGPIPE process-wide would be
    /// inherited by every child the tests start.
    private static func startReaper() -> Int32? {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot + "/Tests/reaper/reaper.py"]
        process.standardInput = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        defer { close(ends[0]) }  // the child has its copy once run() returns; Process keeps the parent's open
        do {
            try process.runOneAtATime()
        } catch {
            close(ends[1])
            return nil
        }
        return ends[1]
    }
}
