import ArgumentParser

/// `photosync status`: catalog counts and the last fetch runs.
struct StatusCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show catalog counts and the last 10 fetch runs.",
        discussion: """
            Example:
              photosync status --format json | jq '.runs[0].outcome'
            """
    )

    /// Enough history to spot a failing cron job without flooding the terminal.
    static let recentRuns = 10

    @OptionGroup var globals: GlobalOptions

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: ReportFormat = .text

    @Flag(help: "Show times in UTC (JSON is always UTC).")
    var utc = false

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .readsCatalog)
            let status = try context.openCatalog(forReading: true).status(recentRuns: Self.recentRuns)
            let text = try StatusOutput.render(
                status, as: format, databasePath: context.location.display, lineWidth: TerminalWidth.current(), time: TableTime(utc: utc))
            try Console.write(text)
        }
    }
}
