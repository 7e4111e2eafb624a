import ArgumentParser

/// `photosync photographers`: show photographers and how many photos each has.
struct PhotographersCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "photographers",
        abstract: "List photographers and their photo counts.",
        discussion: """
            Examples:
              photosync photographers --format json
              photosync photographers --sort photos --limit 10
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Sort order: name, or photos (most first, then by name).")
    var sort: PhotographerSort = .name

    @Option(name: [.customShort("n"), .long], parsing: .unconditional, help: "Show at most this many photographers.")
    var limit: Int?

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: TabularFormat = .table

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        try reportingErrors {
            let catalog = try CommandContext(globals, command: Self.name, logging: .readsCatalog).openCatalog(forReading: true)
            let photographers = try catalog.photographers(sort: sort, limit: limit)
            try Console.write(try PhotographerListOutput.render(photographers, as: format, lineWidth: TerminalWidth.current()))
        }
    }
}
