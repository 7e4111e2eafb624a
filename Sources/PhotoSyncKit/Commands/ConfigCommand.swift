import ArgumentParser
import PhotoFeed

/// `photosync config`: the settings in effect and where each came from; `--check` tries the key.
struct ConfigCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings in effect and where each came from (flag, env, file, default).",
        discussion: """
            The API key is never printed, only whether it is set and where. --check also makes one \
            API call (page 1, one photo, nothing saved) and says whether the endpoint and key work; \
            it exits as a fetch would (69 network, 77 refused key, 78 no key).

            Examples:
              photosync config
              photosync config --format json
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Flag(help: "Also make one API call to check the endpoint and the key.")
    var check = false

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: ReportFormat = .text

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .never)
            let report = try SettingsReport(
                resolver: context.resolver, config: context.config, databasePath: context.location.display,
                databaseFlag: globals.db, logFileFlag: globals.logFile, filesFlag: globals.files)
            try Console.write(try ConfigOutput.render(report, as: format))
            if check { try checkKey(context) }
        }
    }

    /// One request for page 1 with one photo; the outcome as a line, or the fetch's error.
    private func checkKey(_ context: CommandContext) throws {
        var settings = try context.resolver.fetchSettings(flags: SettingsLayer(), pages: 1, config: context.config, dryRun: true, waitForLock: false)
        (settings.perPage, settings.retries) = (1, 0)
        Secrets.register(settings.apiKey)
        let page = try FeedSource(settings: settings).page(1)
        try Console.write("check: ok, \(settings.endpoint) answered page 1 of \(page.pages) with the key in effect\n")
    }
}
