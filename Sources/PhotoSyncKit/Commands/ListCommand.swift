import ArgumentParser

/// `photosync list`: show photos in the catalog.
struct ListCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List photos in the catalog.",
        discussion: """
            Examples:
              photosync list --photographer "Ana Lima" --sort uploaded
              photosync list --limit 20 --format csv > photos.csv
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Only photos by this photographer.")
    var photographer: String?

    @Option(help: "Sort order.")
    var sort: ListSort = .title

    @Option(help: "Show at most this many photos.")
    var limit: Int?

    @Option(help: "Output format.")
    var format: TabularFormat = .table

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        try reportingErrors {
            let photos = try CommandContext(globals).openCatalog(forReading: true).list(photographer: photographer, sort: sort, limit: limit)
            try Console.write(try PhotoListOutput.render(photos, as: format, photographer: photographer))
        }
    }
}
