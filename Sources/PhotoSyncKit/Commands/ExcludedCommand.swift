import ArgumentParser

/// `photosync excluded`: what deletes excluded from later fetches, so a delete is never opaque afterwards.
struct ExcludedCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "excluded",
        abstract: "List the photographers and photo ids deletes excluded from later fetches.",
        discussion: """
            Each with when it was excluded and the delete that did it. 'photosync restore' undoes \
            an exclusion; the next fetch then brings the photos back if the feed still has them.

            Examples:
              photosync excluded
              photosync excluded --format json
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: TabularFormat = .table

    @Flag(help: "Show times in UTC (JSON is always UTC).")
    var utc = false

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .readsCatalog)
            let exclusions = try context.openCatalog(forReading: true).exclusions()
            try Console.write(try ExclusionListOutput.render(exclusions, as: format, lineWidth: TerminalWidth.current(), time: TableTime(utc: utc)))
        }
    }
}
