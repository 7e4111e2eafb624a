import Foundation
import Synchronization

/// `--log-file` / `log_file`: timestamped lines appended for every run, so a cron entry needs no
/// shell redirection. Each line is `2024-05-01T12:00:00Z fetch[PID] catalog=PATH LEVEL message`,
/// already redacted and escaped by `Console`. The file is created with mode 0600, its folder with 0700.
///
/// A root cron job may log into a folder others can write, so the file is opened as logrotate and
/// sudo open theirs: never through a symlink, never a file with other names (hard links), never
/// one owned by another user when running as root, and only a regular file (a FIFO would block
/// every command in `open`, a device swallow the lines).
final class LogFile: Sendable {
    let path: String
    private let descriptor: Int32
    /// Whether a line could not be written: warned about once; a fetch then exits 74.
    private let failure = Mutex<String?>(nil)

    /// Opens `path` for appending, creating it and its folder.
    /// - Throws: `.configuration` (78) naming the file when it cannot be opened or is refused.
    init(path: String) throws(PhotoSyncError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try PrivateFolder.create(folder)
        } catch {
            throw .configuration("log file \(path): cannot create its folder: \(error.message)")
        }
        // O_NONBLOCK: opening a FIFO without a reader fails at once instead of waiting forever.
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            let reason = switch errno {
            case ELOOP: "is a symbolic link; give the log's real path"
            case ENXIO: "not a regular file (a FIFO no one reads)"
            default: String(cString: strerror(errno))
            }
            throw .configuration("log file \(path): \(reason)")
        }
        if let problem = Self.problem(with: descriptor) {
            close(descriptor)
            throw .configuration("log file \(path): \(problem)")
        }
    }

    /// Why the opened file must not be written: not a regular file, more than one name, or (as
    /// root) another user's.
    private static func problem(with descriptor: Int32) -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return String(cString: strerror(errno)) }
        if info.st_mode & S_IFMT != S_IFREG { return "not a regular file" }
        if info.st_nlink > 1 { return "has \(info.st_nlink) hard links; give a log file of its own" }
        if geteuid() == 0 && info.st_uid != 0 { return "owned by another user (uid \(info.st_uid)); root writes only its own log files" }
        return nil
    }

    deinit { close(descriptor) }

    /// Appends one line in a single `write` (O_APPEND keeps concurrent runs' lines whole).
    /// A failed write never stops the run: it is reported on stderr once (``writeFailure``).
    func append(_ level: Console.Level, _ line: String, by tag: LogLineTag) {
        let text = "\(timestamp(Date())) \(tag.text) \(level.rawValue.uppercased()) \(line)\n"
        var bytes = Array(text.utf8)
        let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written != bytes.count else { return }
        let reason = written < 0 ? String(cString: strerror(errno)) : "short write"
        let isFirst = failure.withLock { failure in
            defer { if failure == nil { failure = reason } }
            return failure == nil
        }
        if isFirst { Console.writeError("photosync: warning: \(Console.safeLine("cannot write the log file \(path): \(reason); later lines are lost"))\n") }
    }

    /// Why a line could not be written, if one could not.
    var writeFailure: String? { failure.withLock { $0 } }
}
