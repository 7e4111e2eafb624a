import ArgumentParser
import Foundation

/// `photosync verify`: re-read every recorded file and compare it with the catalog, like restic's
/// `check`, so bit rot, a lost disk or a stray file is found before the file is needed.
struct VerifyCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the files folder against the catalog: missing, corrupt and orphan files.",
        discussion: """
            Every recorded file is read again and hashed. Exit statuses: 0 everything is right; 1 a \
            problem was found (each is listed). --repair removes the orphans (listed first) and the \
            corrupt files, then downloads the missing and corrupt ones again, exiting as download does.

            Examples:
              photosync verify
              photosync verify --format json | jq '.corrupt'
              photosync verify --repair
            """
    )

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var options: DownloadOptions

    @Flag(help: "Remove orphans and corrupt files, then download the missing and corrupt files again.")
    var repair = false

    @Option(name: [.customShort("f"), .long], help: "Report format.")
    var format: ReportFormat = .text

    func validate() throws { try options.validate() }

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: repair ? .changesCatalog : .readsCatalog)
            let settings = try options.settings(context, files: globals.files)
            let catalog = try context.openCatalog(forReading: !repair)
            let files = try catalog.verifiedFiles()
            let check = FolderCheck.run(files, folder: settings.folder)
            try Console.write(try FolderCheckOutput.render(check, as: format))
            guard repair else {
                if !check.isClean { throw ExitCode(1) }
                return
            }
            Self.remove(check, files: files, folder: settings.folder)
            let pass = DownloadPass(catalog: catalog, settings: settings, photographer: options.photographer)
            try DownloadCommand.finish(pass, format: format, quiet: globals.quiet)
        }
    }

    /// Orphans go, and corrupt files too, so the download that follows finds them missing.
    private static func remove(_ check: FolderCheck, files: [String: VerifiedFile], folder: String) {
        for path in check.orphans + check.corrupt.compactMap({ files[$0].map { folder + "/" + $0.path } }) {
            Console.notice("removing \(Console.safeLine(path))")
            unlink(path)
        }
    }
}
