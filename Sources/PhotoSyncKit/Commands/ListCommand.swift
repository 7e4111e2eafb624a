import ArgumentParser

/// `photosync list`: show photos in the catalog.
struct ListCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List photos in the catalog.",
        discussion: """
            --search matches the title or subtitle ignoring case (ß matches SS; accents count). \
            --since and --until bound the upload time, both inclusive: an ISO 8601 time, or a date \
            YYYY-MM-DD meaning that whole UTC day. --photographer takes the exact name, else the one \
            name equal ignoring case (said on stderr); otherwise it exits 1 suggesting the closest names. The table fits the terminal (COLUMNS or its \
            width), cutting titles with "…".

            Examples:
              photosync list --photographer "Ana Lima" --sort uploaded
              photosync list --search harbour --since 2023-01-01 --until 2024-12-31
              photosync list --limit 20 --offset 20 --format jsonl
              photosync list --limit 20 --format csv > photos.csv
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Only photos by this photographer (the exact name, else the one equal ignoring case).", completion: .custom(PhotographerCompletion.names))
    var photographer: String?

    @Option(help: "Only photos whose title or subtitle contains this text, ignoring case.")
    var search: String?

    @Option(help: ArgumentHelp("Only photos uploaded at or after this time (ISO 8601, or YYYY-MM-DD).", valueName: "time"))
    var since: TimeBound?

    @Option(help: ArgumentHelp("Only photos uploaded at or before this time (ISO 8601, or YYYY-MM-DD: the whole day).", valueName: "time"))
    var until: TimeBound?

    @Option(help: ArgumentHelp("Only photos first brought by this source: 'recent', or a search as 'search tags=cats' (see list --format json).", valueName: "source"))
    var source: String?

    @Option(help: "Sort order.")
    var sort: ListSort = .title

    @Option(help: "Show at most this many photos.")
    var limit: Int?

    @Option(help: "Skip this many photos first (with --limit, pages through the list).")
    var offset: Int?

    @Option(help: "Output format.")
    var format: TabularFormat = .table

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if let offset, offset < 0 { throw ValidationError("--offset must be at least 0") }
    }

    func run() throws {
        try reportingErrors {
            let catalog = try CommandContext(globals, command: Self.configuration.commandName!, logging: .readsCatalog).openCatalog(forReading: true)
            var query = ListQuery(photographer: photographer, sort: sort, limit: limit)
            (query.source, query.search, query.offset, query.since, query.until) = (source, search, offset, since?.first, until?.last)
            query.withDetails = format != .table
            var photos = try catalog.list(query)
            if photos.isEmpty, let photographer, !(try catalog.hasPhotographer(named: photographer)) {
                query.photographer = try PhotographerArgument.resolveForListing(photographer, in: catalog)
                photos = try catalog.list(query)
            }
            try Console.write(try PhotoListOutput.render(photos, as: format, photographer: query.photographer, lineWidth: TerminalWidth.current()))
        }
    }
}
