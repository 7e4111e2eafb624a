import ArgumentParser

/// `photosync photographers`: show photographers and how many photos each has.
struct PhotographersCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "photographers",
        abstract: "List photographers and their photo counts, by name.",
        discussion: """
            Example:
              photosync photographers --format json
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Output format.")
    var format: TabularFormat = .table

    func run() throws {
        try reportingErrors {
            let photographers = try CommandContext(globals).openCatalog(forReading: true).photographers()
            try Console.write(try PhotographerListOutput.render(photographers, as: format))
        }
    }
}
