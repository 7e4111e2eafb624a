import ArgumentParser

/// `photosync restore`: undo what `delete` remembered, so later fetches bring the photos back.
struct RestoreCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Let later fetches bring back photos a delete excluded.",
        discussion: """
            With --photographer, undoes a 'delete --photographer': the photographer and every photo id \
            that delete excluded. With ids, forgets those ids only (all or nothing: an id that is not \
            excluded changes nothing, status 1). Nothing is fetched: the next fetch brings the photos \
            back if the feed still has them.

            Examples:
              photosync restore --photographer "Ana Lima"
              photosync restore 53719862871
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Argument(help: ArgumentHelp("Excluded photo ids to forget.", valueName: "photo-id"))
    var photoIDs: [String] = []

    @Option(name: [.customShort("p"), .long], help: "Undo the delete of this photographer.", completion: .custom(PhotographerCompletion.names))
    var photographer: String?

    func validate() throws {
        if photoIDs.isEmpty == (photographer == nil) {
            throw ValidationError("Give either photo ids or --photographer NAME, not both or neither.")
        }
    }

    func run() throws {
        try reportingErrors {
            let catalog = try CommandContext(globals, command: Self.name, logging: .changesCatalog).openCatalog()
            let name = try photographer.map { try PhotographerArgument.resolveForRestore($0, in: catalog) }
            let report = try name.map { try catalog.restore(photographer: $0) } ?? catalog.restore(photoIDs: photoIDs)
            let text = DeletionOutput.render(report)
            Console.info(DeletionOutput.logLine(text))
            if !globals.quiet { try Console.write(text) }
        }
    }
}
