import ArgumentParser
import Logging
import PhotoFeed

extension PhotoSyncError {
    /// A signal or the time limit: the fetch stopped on purpose, keeping the pages saved so far.
    var stopsBetweenPages: Bool {
        switch self {
        case .interrupted, .timeLimit: true
        default: false
        }
    }
}

/// `photosync fetch`: download recent photos into the catalog.
struct FetchCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download recent photos into the catalog.",
        discussion: """
            Settings come from flags, then PHOTOSYNC_API_KEY, PHOTOSYNC_URL, PHOTOSYNC_PER_PAGE, \
            PHOTOSYNC_MAX_PAGES, PHOTOSYNC_MERGE_POLICY, PHOTOSYNC_TIMEOUT, PHOTOSYNC_MAX_TIME, PHOTOSYNC_RETRIES, \
            PHOTOSYNC_API_BUDGET, PHOTOSYNC_SEARCH_USER, PHOTOSYNC_SEARCH_TAGS, PHOTOSYNC_SEARCH_TEXT, PHOTOSYNC_CA_FILE, then the \
            config file, then defaults. Only one fetch runs per catalog at a time; another one fails \
            with status 75, or waits with --wait. A fetch stops with status 75 when the key has made \
            api_budget calls (default 3000) in the last hour, or when the API asks to wait longer than \
            twice the timeout (at least 120 s; --wait waits), or when it reaches --max-time (the pages \
            saved so far stay). With --quiet a successful text summary is not printed.

            --api-key shows in the process list (ps) to every user of the machine: prefer \
            PHOTOSYNC_API_KEY or api_key in the config file (chmod 600).

            --dry-run saves nothing and creates nothing: without a catalog at --db it runs against a \
            temporary one, deleted at the end.

            Examples:
              photosync fetch --pages 3
              photosync fetch --dry-run --format json
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: ArgumentHelp("The REST endpoint, http(s):// or file://.", valueName: "url"))
    var url: String?

    @Option(help: ArgumentHelp(
        "The API key (not needed for file:// URLs). Visible in the process list: prefer PHOTOSYNC_API_KEY or the config file.",
        valueName: "key"))
    var apiKey: String?

    @Option(help: ArgumentHelp(
        "Fetch at most this many pages (default max_pages). A fetch stops earlier at a page of photos it has, then spends "
            + "what is left on finishing a walk an earlier limit cut.",
        valueName: "n"))
    var pages: Int?

    @Option(help: "Photos per page, 1 to 500 (default 100).")
    var perPage: Int?

    @Option(help: "How to reconcile photos already in the catalog (default object-trump).")
    var mergePolicy: MergePolicyChoice?

    @OptionGroup var transfer: TransferOptions

    @Flag(help: "Then download the images of photos without a verified file, as 'photosync download' does (config download: true).")
    var download = false

    @Option(help: ArgumentHelp("Then re-check up to N photos with what is left of the API budget, as 'photosync recheck' (config recheck_per_run).",
                               valueName: "n"))
    var recheck: Int?

    @Flag(help: "Fetch and compare, but save nothing.")
    var dryRun = false

    @Option(name: [.customShort("f"), .long], help: "Summary format.")
    var format: ReportFormat = .text

    @Flag(help: "Wait for another fetch on the same catalog to finish instead of failing.")
    var wait = false

    @Flag(help: "Walk to the page limit even when the last fetch of this feed completed (no stop at known photos).")
    var full = false

    @Flag(help: "Fetch the photos a search finds (flickr.photos.search, newest first, resumed from the last completed fetch of the same query) instead of the recent feed.")
    var search = false

    @Option(help: ArgumentHelp("With --search: whose photos (a Flickr NSID, sent as user_id).", valueName: "nsid"))
    var user: String?

    @Option(help: ArgumentHelp("With --search: comma-separated tags.", valueName: "tags"))
    var tags: String?

    @Option(help: ArgumentHelp("With --search: free text matched in titles, descriptions and tags.", valueName: "text"))
    var text: String?

    func validate() throws {
        if let pages, pages < 1 { throw ValidationError("--pages must be at least 1") }
        if let recheck, recheck < 0 { throw ValidationError("--recheck must be 0 or more") }
        if let perPage, let problem = SettingKey.perPage.rangeProblem(Double(perPage)) { throw ValidationError("--per-page \(problem)") }
        if let url, let problem = endpointProblem(url) { throw ValidationError("--url \(problem)") }
        if let apiKey, let problem = SettingsLayer.apiKeyProblem(apiKey) { throw ValidationError("--api-key \(problem)") }
        if !search, let flag = [("--user", user), ("--tags", tags), ("--text", text)].first(where: { $0.1 != nil })?.0 {
            throw ValidationError("\(flag) needs --search")
        }
    }

    func run() throws {
        let start = ContinuousClock.now
        var apiKeyInUse: String?
        try reportingErrors(hiding: { apiKeyInUse }) {
            Secrets.register(apiKey)
            let context = try CommandContext(globals, command: Self.name, logging: .changesCatalog)
            let settings = try settings(context, startedAt: start)
            apiKeyInUse = settings.apiKey
            let summary = try fetchHoldingTheLock(context, settings)
            Console.info("fetch \(dryRun ? "dry run " : "")finished: \(FetchSummaryOutput.oneLine(summary))")
            let downloads = dryRun ? false : try download || context.resolver.wantsDownload(config: context.config)
            if !(globals.quiet && format == .text) && !(downloads && format == .json) {
                try Console.write(try FetchSummaryOutput.render(summary, as: format, dryRun: dryRun))
            }
            if downloads {
                let pass = try downloadPass(context, settings)
                try DownloadCommand.finish(pass, format: format, quiet: globals.quiet, fetched: summary)
            }
            // The catalog holds the run; a cron job still hears that its log is missing lines.
            if Console.logWriteFailure != nil { throw ExitCode(PhotoSyncError.output("").exitStatus) }
        }
    }

    /// Flags, then the environment, then the config file, then defaults; the deadline counted from `start`.
    private func settings(_ context: CommandContext, startedAt start: ContinuousClock.Instant) throws -> FetchSettings {
        let flags = SettingsLayer(
            endpoint: url, apiKey: apiKey, perPage: perPage, mergePolicy: mergePolicy, timeout: transfer.timeout, maxTime: transfer.maxTime,
            retries: transfer.retries, search: FeedSearch(user: user, tags: tags, text: text), caFile: transfer.caFile)
        var settings = try context.resolver.fetchSettings(
            flags: flags, pages: pages, config: context.config, dryRun: dryRun, waitForLock: wait, search: search)
        settings.full = full
        settings.recheckPerRun = recheck ?? settings.recheckPerRun
        settings.deadline = settings.maxTime.map { FetchDeadline(seconds: $0, from: start) }
        if let deadline = settings.deadline { Watchdog.enforce(deadline, with: deadline.exceeded) }
        Secrets.register(settings.apiKey)
        return settings
    }

    /// The fetch itself, holding the catalog's fetch lock (a dry run without a catalog runs against
    /// a scratch one), with a progress bar; a stop between pages says what was kept.
    private func fetchHoldingTheLock(_ context: CommandContext, _ settings: FetchSettings) throws -> FetchSummary {
        let scratch = try dryRun && !context.catalogExists() ? ScratchCatalog() : nil
        let location = scratch.map { .file($0.path) } ?? context.location
        Console.info("fetch started: \(settings.endpoint), catalog \(context.location.display)\(dryRun ? " (dry run)" : "")")
        context.logger.debug("fetching \(settings.endpoint), \(settings.perPage) per page, policy \(settings.mergePolicy.rawValue)")
        if scratch == nil {
            try context.refuseSpecialFile()
            try location.createFolder()
        }
        let lock = try FetchLock.take(location, wait: wait, deadline: settings.deadline) {
            Console.notice("waiting for another fetch on \(location.display)")
        }
        let progress = ProgressDisplay.onStandardError(pageLimit: pages ?? settings.maxPages, quiet: globals.quiet)
        return try withExtendedLifetime(lock) {
            defer { progress.finish() }
            progress.begin()
            var expected: Int?
            do {
                let catalog = try lock.catalog(location)
                return try InterruptionWatch.listeningForSignals { watch in
                    var summary = try catalog.fetch(settings, lease: lock.lease, interruption: watch, progress: { summary in
                        Console.info("page \(summary.pages) saved; totals so far: \(FetchSummaryOutput.oneLine(summary))")
                        progress.update(summary, expected: expected)
                    }, pagesExpected: { expected = $0 })
                    if settings.recheckPerRun > 0, !dryRun {
                        summary.recheck = try catalog.recheck(settings, RecheckRequest(limit: settings.recheckPerRun), interruption: watch)
                    }
                    return summary
                }
            } catch let stop as PhotoSyncError where stop.stopsBetweenPages {
                // One line that says what was kept, instead of the bare "interrupted by signal N".
                progress.finish()
                let kept = dryRun ? "nothing saved (dry run)" : "\(progress.last.pages) page(s) saved; run again to continue"
                Console.diagnostic("\(stop.message): \(kept)")
                throw ExitCode(stop.exitStatus)
            }
        }
    }

    /// The download that follows the fetch: fetch's timeout, retries, CA file and deadline.
    private func downloadPass(_ context: CommandContext, _ fetch: FetchSettings) throws -> DownloadPass {
        var settings = try context.resolver.downloadSettings(
            flags: SettingsLayer(timeout: fetch.timeout, retries: fetch.retries, caFile: fetch.caFile),
            filesFlag: globals.files, config: context.config, databasePath: context.databasePath)
        settings.caFile = fetch.caFile
        var pass = DownloadPass(catalog: try context.openCatalog(), settings: settings)
        pass.deadline = fetch.deadline
        return pass
    }
}
