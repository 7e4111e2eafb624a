import Foundation

/// `--log-file` / `log_file`: timestamped lines appended for every run, so a cron entry needs no
/// shell redirection. Each line is `2024-05-01T12:00:00Z fetch[PID] catalog=PATH LEVEL message`, already redacted and
/// escaped by `Console`. The file is created with mode 0600, its folder with 0700.
final class LogFile: Sendable {
    let path: String
    private let descriptor: Int32

    /// Opens `path` for appending, creating it and its folder.
    /// - Throws: `.configuration` (78) naming the file when it cannot be opened.
    init(path: String) throws(PhotoSyncError) {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try PrivateFolder.create(folder)
        } catch {
            throw .configuration("log file \(path): cannot create its folder: \(error.message)")
        }
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .configuration("log file \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    /// Appends one line in a single `write` (O_APPEND keeps concurrent runs' lines whole).
    /// A failed write is ignored: the log must never turn a good run into a failed one.
    func append(_ level: Console.Level, _ line: String, by tag: LogLineTag) {
        let text = "\(timestamp(Date())) \(tag.text) \(level.rawValue.uppercased()) \(line)\n"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}
