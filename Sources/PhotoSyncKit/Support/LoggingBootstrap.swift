import ArgumentParser
import Logging

/// The executable's one-time logging setup; library code only creates `Logger`s.
public enum LoggingBootstrap {
    /// Debug logs on stderr with `--verbose`, otherwise only warnings and errors.
    public static func bootstrap(for command: any ParsableCommand) {
        let verbose = (command as? any GlobalOptionsCommand)?.globals.verbose ?? false
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .warning
            return handler
        }
    }
}
