import ArgumentParser

/// `photosync recheck`: edits and deletions upstream, one `flickr.photos.getInfo` per photo.
struct RecheckCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "recheck",
        abstract: "Ask the API again about the photos checked longest ago: edits, and photos gone upstream.",
        discussion: """
            One flickr.photos.getInfo per photo (never-checked photos first), within the key's \
            api_budget: a budget that runs out ends the run with status 0, saying how many were \
            left. An edit is applied as a fetch applies one, under merge_policy; a photo deleted \
            upstream (API code 1) or now private (code 2) is marked gone, never deleted (list \
            --gone shows them; delete --gone drops them). A gone photo that answers again returns. \
            Every change shows in 'photosync changes' by the author recheck. Codes 105 and 106 are \
            retried; any other API error stops with 69, the photos re-checked so far saved.

            Examples:
              photosync recheck --limit 200
              photosync recheck --older-than 30 --format json
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Re-check at most this many photos.")
    var limit = 100

    @Option(help: ArgumentHelp("Only photos not checked for this many days.", valueName: "days"))
    var olderThan: Int?

    @Option(help: "Only this photographer's photos.")
    var photographer: String?

    @Option(help: ArgumentHelp("The REST endpoint, http(s)://.", valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp("The API key. Visible in the process list: prefer PHOTOSYNC_API_KEY or the config file.", valueName: "key"))
    var apiKey: String?

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: ReportFormat = .text

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let olderThan, olderThan < 0 { throw ValidationError("--older-than must be 0 or more days") }
        if let url, let problem = endpointProblem(url) { throw ValidationError("--url \(problem)") }
    }

    func run() throws {
        var apiKeyInUse: String?
        try reportingErrors(hiding: { apiKeyInUse }) {
            Secrets.register(apiKey)
            let context = try CommandContext(globals, command: Self.name, logging: .changesCatalog)
            let settings = try context.resolver.fetchSettings(
                flags: SettingsLayer(endpoint: url, apiKey: apiKey), pages: nil, config: context.config, dryRun: false, waitForLock: false)
            apiKeyInUse = settings.apiKey
            Secrets.register(settings.apiKey)
            guard try context.catalogExists() else { throw PhotoSyncError.noInput("no catalog at \(context.location.display)") }
            let lock = try FetchLock.take(context.location, wait: false) {}
            let request = RecheckRequest(limit: limit, olderThanDays: olderThan, photographer: photographer)
            let summary = try withExtendedLifetime(lock) {
                let catalog = try lock.catalog(context.location)
                return try InterruptionWatch.listeningForSignals { watch in try catalog.recheck(settings, request, interruption: watch) }
            }
            Console.info("recheck finished: " + RecheckOutput.oneLine(summary))
            try Console.write(try RecheckOutput.render(summary, as: format))
        }
    }
}
