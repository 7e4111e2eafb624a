import Logging

/// swift-log's lines routed through `Console`, so `--verbose` output is redacted and escaped like
/// every other line and reaches the log file.
struct ConsoleLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let level: Console.Level = switch event.level {
        case .trace, .debug: .debug
        case .info, .notice: .info
        case .warning: .warning
        case .error, .critical: .error
        }
        Console.emit(level, "\(event.message)")
    }
}
