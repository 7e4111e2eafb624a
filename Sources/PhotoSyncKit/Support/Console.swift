import Foundation
import Synchronization

/// stdout for data, stderr for one-line diagnostics prefixed with the tool's name, and the log
/// file (`--log-file`) for a record of every run.
///
/// Every diagnostic is redacted (`Secrets`) and escaped (`TerminalText`) here, whatever produced it.
/// Levels decide where a line goes:
/// - errors and warnings (data may be missing: a gap; a config readable by others) reach stderr always;
/// - notices (skipped items, waiting for the lock) reach stderr unless `--quiet`;
/// - info (start, each page, the summary) and debug (`--verbose` only) go to the log file, debug to
///   stderr as well.
enum Console {
    enum Level: String, Sendable {
        case error, warning, notice, info, debug
    }

    private struct State {
        var quiet = false
        var verbose = false
        var logFile: LogFile?
        var logTag = LogLineTag(command: "photosync")
    }

    private static let state = Mutex(State())

    /// Applies `--quiet` and `--verbose` for the rest of the process.
    static func setVerbosity(quiet: Bool, verbose: Bool) {
        state.withLock { ($0.quiet, $0.verbose) = (quiet, verbose) }
    }

    /// Appends every later line to `logFile` too (nil: none), each tagged with `tag` (who wrote it).
    static func setLogFile(_ logFile: LogFile?, tag: LogLineTag) {
        state.withLock { ($0.logFile, $0.logTag) = (logFile, tag) }
    }

    /// Why a line could not be written to the log file, if one could not (warned about once; a
    /// fetch then exits 74).
    static var logWriteFailure: String? { state.withLock { $0.logFile }?.writeFailure }

    /// Writes `text` to stdout as is, unbuffered; renderers end their output with a newline themselves.
    /// - Throws: `.output` (74) when the write fails (a full disk), `.closedPipe` when the reader
    ///   went away (`photosync list | head -1`).
    static func write(_ text: String) throws(PhotoSyncError) {
        try StandardOutput.write(text)
    }

    /// An error line: `photosync: message`.
    static func diagnostic(_ message: String) { emit(.error, message) }

    static func warning(_ message: String) { emit(.warning, message) }

    static func notice(_ message: String) { emit(.notice, message) }

    static func info(_ message: @autoclosure () -> String) { emit(.info, message()) }

    static func debug(_ message: @autoclosure () -> String) { emit(.debug, message()) }

    /// `message` on one line, redacted and escaped, to stderr and the log file as its level says.
    /// Nothing is redacted or escaped for a line no one will read (a page's info line without a log file).
    static func emit(_ level: Level, _ message: @autoclosure () -> String) {
        let current = state.withLock { $0 }
        let toTerminal = switch level {
        case .error: true
        case .warning: true
        case .notice: !current.quiet
        case .info: false
        case .debug: current.verbose
        }
        let logFile = level != .debug || current.verbose ? current.logFile : nil
        guard toTerminal || logFile != nil else { return }
        let line = safeLine(message())
        if toTerminal { writeError("photosync: \(level == .warning ? "warning: " : "")\(line)\n") }
        logFile?.append(level, line, by: current.logTag)
    }

    /// One line, no secret, no raw control character.
    static func safeLine(_ message: String) -> String {
        TerminalText.escaped(Secrets.redact(message.split(whereSeparator: \.isNewline).joined(separator: " ")))
    }

    /// Raw text to stderr (top-level messages already formatted), above the progress bar if one shows.
    static func writeError(_ text: String) {
        StatusLine.standardError.printAbove(text)
    }
}
