import ArgumentParser

/// `photosync show`: everything the catalog holds about one photo.
struct ShowCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one photo: every field, its Flickr page and its image URL.",
        discussion: """
            The page URL is https://www.flickr.com/photos/{owner id}/{photo id}. An id not in the \
            catalog exits 1. JSON has list's keys plus owner_id and page_url.

            Examples:
              photosync show 53719862873
              photosync show 53719862873 --format json
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Argument(help: ArgumentHelp("The photo's id.", valueName: "photo-id"))
    var photoID: String

    @Option(name: [.customShort("f"), .long], help: "Output format.")
    var format: ReportFormat = .text

    @Flag(help: "Show times in UTC (JSON is always UTC).")
    var utc = false

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .readsCatalog)
            let catalog = try context.openCatalog(forReading: true)
            guard let photo = try catalog.photo(id: photoID) else {
                guard let excluded = try catalog.exclusion(ofPhoto: photoID) else {
                    throw PhotoSyncError.notFound("not in the catalog: photo \(photoID)")
                }
                throw PhotoSyncError.notFound("not in the catalog: photo \(photoID) was excluded by a delete on \(timestamp(excluded)) "
                    + "('photosync restore \(photoID)' lets the next fetch bring it back)")
            }
            let folder = context.resolver.filesFolder(flag: globals.files, config: context.config, databasePath: context.databasePath)
            let file = try catalog.file(ofPhoto: photoID).map { file, downloaded in
                ShownFile(path: folder.map { $0 + "/" + file.path } ?? file.path, file: file, downloaded: downloaded)
            }
            try Console.write(try ShowOutput.render(photo, file: file, as: format, time: TableTime(utc: utc)))
        }
    }
}
