import ArgumentParser
import Foundation

/// `photosync migrate`: copy a catalog between SQLite and PostgreSQL.
struct MigrateCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy the catalog into another, empty one (SQLite to PostgreSQL, or back).",
        discussion: """
            --to copies the catalog named by --db into DEST; --from copies SOURCE into the catalog \
            named by --db. Everything is copied: photos, photographers, runs, the exclusions of \
            delete and the API calls of the last day. The destination must hold no catalog rows \
            (it is created if needed); the copy is one transaction there, its counts are checked \
            against the source's and printed. The source is left as it was. A fetch cannot run \
            on the destination meanwhile.

            postgresql:///photos is the database photos on the local server, with the user and \
            password of libpq's environment (PGUSER, PGPASSWORD) or ~/.pgpass.

            Examples:
              photosync migrate --to postgresql:///photos
              photosync --db ~/copy.sqlite migrate --from postgresql:///photos
            """
    )

    @OptionGroup var globals: GlobalOptions

    @Option(help: ArgumentHelp("Copy the catalog into this empty one (a postgres:// URL or a file).", valueName: "dest"))
    var to: String?

    @Option(help: ArgumentHelp("Copy this catalog (a postgres:// URL or a file) into the --db one, which must be empty.", valueName: "source"))
    var from: String?

    func validate() throws {
        if (to == nil) == (from == nil) { throw ValidationError("Give either --to DEST or --from SOURCE.") }
    }

    func run() throws {
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: .changesCatalog)
            let other = CatalogLocation(context.resolver.expandingTilde(to ?? from ?? ""))
            other.secrets.forEach(Secrets.register)
            let (source, destination) = to != nil ? (context.location, other) : (other, context.location)
            guard source != destination else { throw PhotoSyncError.usage("the source and the destination are the same catalog") }
            let sourceCatalog = try Self.openExisting(source)
            try destination.createFolder()
            let lock = try FetchLock.take(destination, wait: false) {}
            let report = try withExtendedLifetime(lock) { try sourceCatalog.copy(into: lock.catalog(destination)) }
            let text = "copied \(source.display) to \(destination.display)\n" + report.counts.map { "\($0.name): \($0.rows)\n" }.joined()
            Console.info(DeletionOutput.logLine(text))
            if !globals.quiet { try Console.write(text) }
        }
    }

    private static func openExisting(_ location: CatalogLocation) throws -> Catalog {
        guard Catalog.exists(location) else {
            throw PhotoSyncError.noInput("no catalog at \(location.display)")
        }
        return try Catalog(location, forReading: true)
    }
}
