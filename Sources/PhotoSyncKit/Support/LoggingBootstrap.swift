import ArgumentParser
import Logging
import Synchronization

/// The executable's one-time logging setup; library code only creates `Logger`s.
public enum LoggingBootstrap {
    private static let done = Mutex(false)

    /// Debug logs on stderr with `--verbose`, otherwise only warnings and errors; every line goes
    /// through `Console` (redacted, escaped, and to the log file).
    ///
    /// swift-log allows one bootstrap per process, so calls after the first are ignored
    /// (tests run many commands in one process).
    public static func bootstrap(for command: any ParsableCommand) {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        let globals = (command as? any GlobalOptionsCommand)?.globals
        let verbose = globals?.verbose ?? false
        Console.setVerbosity(quiet: globals?.quiet ?? false, verbose: verbose)
        LoggingSystem.bootstrap { _ in ConsoleLogHandler(logLevel: verbose ? .debug : .warning) }
    }
}
