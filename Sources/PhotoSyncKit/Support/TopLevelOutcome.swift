import ArgumentParser
import Foundation

/// What the executable prints and returns for an error that reached the top level.
///
/// Help, version and completion-script requests (argument-parser's clean exits) go to stdout
/// as argument-parser renders them, with status 0. Every failure is at most one stderr line,
/// `photosync: <message>`. A usage error adds a pointer to the right `--help` and exits 64.
/// `ExitCode`s thrown by commands were already reported by `reportingErrors`, so they print nothing.
public struct TopLevelOutcome: Equatable, Sendable {
    public var standardOutput: String
    public var standardError: String
    public var status: Int32

    public init(standardOutput: String = "", standardError: String = "", status: Int32) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.status = status
    }

    /// Maps `error`, thrown by `parseAsRoot` or by a command's `run()`, for the command tree `root`.
    public init(for error: any Error, root: any ParsableCommand.Type = PhotoSyncCommand.self) {
        switch error {
        case let exit as ExitCode:
            self.init(status: exit.rawValue)
        case let error as PhotoSyncError:
            // Commands report these themselves; one escaping `reportingErrors` is still one line.
            self.init(standardError: Self.line(oneLine(error.message, hiding: nil)), status: error.exitStatus)
        default:
            let code = root.exitCode(for: error)
            if code == .success {
                let text = root.fullMessage(for: error)
                self.init(standardOutput: text.isEmpty ? "" : text + "\n", status: 0)
            } else if code == .validationFailure {
                self.init(standardError: Self.line(Self.usageLine(for: error, root: root)), status: code.rawValue)
            } else {
                // Not a usage error, not ours: a bug, reported like `reportingErrors` does.
                self.init(standardError: Self.line("internal error: \(oneLine(String(describing: error), hiding: nil))"), status: 70)
            }
        }
    }

    /// One line, redacted and with controls escaped (a usage error may quote what was typed).
    private static func line(_ message: String) -> String {
        "photosync: \(Console.safeLine(message))\n"
    }

    /// argument-parser's message, first non-blank line only, plus where to read more:
    /// `--pages must be at least 1 (see 'photosync fetch --help')`.
    static func usageLine(for error: any Error, root: any ParsableCommand.Type) -> String {
        let message = firstLine(of: root.message(for: error)) ?? "invalid usage"
        guard let helpCommand = helpPointer(in: root.fullMessage(for: error)) else { return message }
        return "\(message) (see '\(helpCommand)')"
    }

    /// The first line with something on it, trimmed, without an `Error: ` prefix.
    static func firstLine(of text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
        guard var line else { return nil }
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        return line
    }

    /// The `photosync fetch --help` in argument-parser's "See 'photosync fetch --help' for more information."
    static func helpPointer(in fullMessage: String) -> String? {
        for line in fullMessage.split(whereSeparator: \.isNewline) {
            guard let start = line.range(of: "See '"), let end = line[start.upperBound...].firstIndex(of: "'") else {
                continue
            }
            return String(line[start.upperBound..<end])
        }
        return nil
    }
}

extension PhotoSyncCommand {
    /// Parses `arguments` (nil: the process's), sets up logging, runs the command and returns the
    /// exit status for the executable to exit with.
    ///
    /// This replaces argument-parser's `main()`/`exit(withError:)`, which print multi-line usage
    /// errors: see `TopLevelOutcome` for what is printed.
    public static func execute(_ arguments: [String]? = nil) -> Int32 {
        ProcessHardening.apply()
        return execute(arguments, output: { try? Console.write($0) }, error: Console.writeError)
    }

    /// `execute`, with the top-level message (help text or the error line) going to `output` and `error`.
    static func execute(_ arguments: [String]?, output: (String) -> Void, error: (String) -> Void) -> Int32 {
        let outcome: TopLevelOutcome
        do {
            let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
            try UnknownCommand.check(arguments, root: Self.self)
            var command = try BulkPhotoIDs.parse(arguments) ?? parseAsRoot(arguments)
            try ResourceLimits.checkDescriptors(
                needed: command is FetchCommand ? ResourceLimits.descriptorsForFetch : ResourceLimits.descriptorsForReading)
            LoggingBootstrap.bootstrap(for: command)
            try command.run()
            return 0
        } catch let failure {
            outcome = TopLevelOutcome(for: failure)
        }
        if !outcome.standardOutput.isEmpty { output(outcome.standardOutput) }
        if !outcome.standardError.isEmpty { error(outcome.standardError) }
        return outcome.status
    }
}
