import ArgumentParser

/// `photosync list`: show photos in the catalog.
struct ListCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List photos in the catalog.",
        discussion: """
            --search matches the title or subtitle ignoring case (ß matches SS; accents count). \
            --since and --until bound the upload time, both inclusive: an ISO 8601 time, a date \
            YYYY-MM-DD meaning that whole UTC day, a duration back from now (30m, 24h, 7d, 2w), or \
            today or yesterday in the local zone. --photographer takes the exact name, else the one \
            name equal ignoring case (said on stderr); otherwise it exits 1 suggesting the closest \
            names. The table fits the terminal (COLUMNS or its width), cutting titles with "…", and \
            shows times in the local zone (--utc: UTC); JSON and CSV are always UTC.

            Examples:
              photosync list --photographer "Ana Lima" --sort uploaded
              photosync list --search harbour --since 2023-01-01 --until 2024-12-31
              photosync list --since 7d -n 20
              photosync list --limit 20 --offset 20 --format jsonl
              photosync list --limit 20 --format csv > photos.csv
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(name: [.customShort("p"), .long], help: "Only photos by this photographer (the exact name, else the one equal ignoring case).", completion: .custom(PhotographerCompletion.names))
    var photographer: String?

    @Option(help: "Only photos whose title or subtitle contains this text, ignoring case.")
    var search: String?

    @Option(help: ArgumentHelp("Only photos uploaded at or after this time (ISO 8601, YYYY-MM-DD, 24h, 7d, today, yesterday).", valueName: "time"))
    var since: TimeBound?

    @Option(help: ArgumentHelp("Only photos uploaded at or before this time (ISO 8601, YYYY-MM-DD: the whole day, 24h, today, yesterday).", valueName: "time"))
    var until: TimeBound?

    @Option(help: ArgumentHelp("Only photos first brought by this source: 'recent', or a search as 'search tags=cats' (see list --format json).", valueName: "source"))
    var source: String?

    @Option(help: ArgumentHelp("Only photos with this tag (repeat for photos with every one; matched as Flickr normalizes tags).", valueName: "tag"))
    var tag: [String] = []

    @Option(help: ArgumentHelp("Only photos under this license id (see the license key in list --format json).", valueName: "id"))
    var license: String?

    @Option(help: "Sort order.")
    var sort: ListSort = .title

    @Option(name: [.customShort("n"), .long], parsing: .unconditional, help: "Show at most this many photos.")
    var limit: Int?

    @Option(parsing: .unconditional, help: "Skip this many photos first (with --limit, pages through the list).")
    var offset: Int?

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: TabularFormat = .table

    @Flag(help: "Show times in UTC in the table (JSON and CSV are always UTC).")
    var utc = false

    @Flag(help: "Only photos a re-check found gone upstream (the table marks them '(gone)').")
    var gone = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let offset, offset < 0 { throw ValidationError("--offset must be at least 0") }
        if let since, let until, since.first > until.last {
            throw ValidationError("--since is after --until: no photo can match (\(timestamp(since.first)) > \(timestamp(until.last)))")
        }
    }

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .readsCatalog)
            let catalog = try context.openCatalog(forReading: true)
            var query = ListQuery(photographer: photographer, sort: sort, limit: limit)
            (query.source, query.search, query.offset, query.since, query.until) = (source, search, offset, since?.first, until?.last)
            (query.license, query.tags, query.gone) = (license, tag, gone)
            query.withDetails = format != .table
            let folder = context.resolver.filesFolder(flag: globals.files, config: context.config, databasePath: context.databasePath)
            let request = PhotoListRequest(query: query, filesFolder: folder)
            try Console.write(try request.render(in: catalog, as: format, lineWidth: TerminalWidth.current(), time: TableTime(utc: utc)))
        }
    }
}
