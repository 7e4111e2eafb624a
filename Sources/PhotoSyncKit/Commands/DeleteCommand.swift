import ArgumentParser
import Foundation

/// `photosync delete`: remove photos by id, or a photographer with all their photos.
struct DeleteCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete photos by id, or a photographer and all their photos.",
        discussion: """
            Deleting by id is all-or-nothing: if any id is missing, nothing is deleted (status 1). \
            A photographer left without photos is removed too. With --quiet nothing is printed.

            A delete lasts: later fetches skip the deleted ids, and after --photographer every photo \
            of that photographer, until 'photosync restore' undoes it. --forget-only deletes without \
            remembering (the next fetch brings the photos back).

            Examples:
              photosync delete 53719862871 53719862872
              photosync delete --photographer "Ana Lima" --dry-run
              photosync delete --photographer "Ana Lima"
              photosync restore --photographer "Ana Lima"
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Argument(help: ArgumentHelp("Ids of the photos to delete.", valueName: "photo-id"))
    var photoIDs: [String] = []

    @Option(name: [.customShort("p"), .long], help: "Delete this photographer and all their photos.", completion: .custom(PhotographerCompletion.names))
    var photographer: String?

    @Flag(help: "Delete the photos a re-check found gone upstream (see recheck, list --gone).")
    var gone = false

    @Flag(help: "Delete without remembering: later fetches may bring the photos back.")
    var forgetOnly = false

    @Flag(help: "Keep the deleted photos' image files (by default they are removed once the delete is saved).")
    var keepFiles = false

    @Flag(help: "Print what would be deleted; change nothing.")
    var dryRun = false

    func validate() throws {
        if [!photoIDs.isEmpty, photographer != nil, gone].filter({ $0 }).count != 1 {
            throw ValidationError("Give one of photo ids, --photographer NAME or --gone.")
        }
    }

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .changesCatalog)
            let catalog = try context.openCatalog()
            if let photographer, !(try catalog.hasPhotographer(named: photographer)) {
                throw try PhotographerArgument.refusalForDelete(photographer, in: catalog)
            }
            let report = try gone ? catalog.deleteGone(remembering: !forgetOnly, dryRun: dryRun)
                : photographer.map { try catalog.delete(photographer: $0, remembering: !forgetOnly, dryRun: dryRun) }
                ?? catalog.delete(photoIDs: photoIDs, remembering: !forgetOnly, dryRun: dryRun)
            if !dryRun && !keepFiles { removeFiles(report, context) }
            let text = DeletionOutput.render(report, photographer: photographer, dryRun: dryRun)
            Console.info(DeletionOutput.logLine(text))
            if !globals.quiet { try Console.write(text) }
        }
    }

    /// After the commit: a crash in between leaves files `verify` lists as orphans, never a catalog
    /// row without its file. A PostgreSQL catalog without a files folder has none here to remove.
    private func removeFiles(_ report: DeletionReport, _ context: CommandContext) {
        guard let folder = context.resolver.filesFolder(flag: globals.files, config: context.config, databasePath: context.databasePath)
        else { return }
        for path in report.filePaths where unlink(folder + "/" + path) != 0 && errno != ENOENT {
            Console.warning("cannot remove \(Console.safeLine(folder + "/" + path)): \(String(cString: strerror(errno)))")
        }
    }
}
