import Foundation

/// Every failure photosync reports, each with its sysexits status.
///
/// Commands print `message` as one line on stderr and exit with `exitStatus`.
public enum PhotoSyncError: Error, Equatable, Sendable {
    /// A requested photo or photographer is not in the catalog (exit 1).
    case notFound(String)
    /// Bad command-line usage (exit 64).
    case usage(String)
    /// The feed sent data that cannot be used (exit 65).
    case badFeed(String)
    /// A merge conflict under the `error` policy (exit 65).
    case conflict(String)
    /// An input named by the user does not exist, such as a `file://` feed (exit 66).
    case noInput(String)
    /// The network or the API failed after retries (exit 69).
    case network(String)
    /// The process ran out of memory or could not start a thread, say under `ulimit -v` (exit 71,
    /// EX_OSERR).
    case outOfMemory(String)
    /// The catalog file cannot be opened or written (exit 74): a full disk, no free inodes, a
    /// file size limit, or a file that is not a catalog.
    case catalog(String)
    /// The process has no file descriptor left, say under `ulimit -n` (exit 74, EX_IOERR).
    case outOfDescriptors(String)
    /// Standard output cannot be written, say on a full disk (exit 74).
    case output(String)
    /// The reader of standard output went away (`| head -1`): nothing is printed, exit 141 as for
    /// a process killed by SIGPIPE.
    case closedPipe
    /// Another fetch holds the catalog (exit 75).
    case locked(String)
    /// Stopped cleanly until later: the API asked for a long wait, or the key's hourly budget is
    /// spent (exit 75); pages saved so far stay.
    case tryLater(String)
    /// The fetch reached its `--max-time` (`max_time`) of this many seconds (exit 75); pages saved
    /// so far stay.
    case timeLimit(seconds: Double)
    /// The API refused the key (exit 77).
    case permission(String)
    /// The configuration is invalid (exit 78).
    case configuration(String)
    /// The run was stopped by a signal (exit 128 + signal).
    case interrupted(signal: Int32)

    public var exitStatus: Int32 {
        switch self {
        case .notFound: 1
        case .usage: 64
        case .badFeed, .conflict: 65
        case .noInput: 66
        case .network: 69
        case .outOfMemory: 71
        case .catalog, .outOfDescriptors, .output: 74
        case .locked, .tryLater, .timeLimit: 75
        case .permission: 77
        case .configuration: 78
        case .interrupted(let signal): 128 + signal
        case .closedPipe: 128 + SIGPIPE
        }
    }

    public var message: String {
        switch self {
        case .notFound(let text), .usage(let text), .badFeed(let text), .conflict(let text),
            .noInput(let text), .network(let text), .outOfMemory(let text), .catalog(let text), .outOfDescriptors(let text),
            .output(let text), .locked(let text), .tryLater(let text), .permission(let text), .configuration(let text):
            text
        case .timeLimit(let seconds): "stopped at the time limit of \(Self.seconds(seconds)) s (--max-time or max_time)"
        case .closedPipe: "standard output was closed"
        case .interrupted(let signal): "interrupted by signal \(signal)"
        }
    }

    /// `5` for 5.0, `2.5` for 2.5.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension PhotoSyncError: LocalizedError {
    public var errorDescription: String? { message }
}
