import Foundation
import GraphStore
import Logging

/// What every command needs before it opens the catalog: the config file, the catalog path, the
/// log file, and the secrets to redact.
struct CommandContext {
    let resolver: SettingsResolver
    let config: ConfigFile?
    let databasePath: String
    /// The catalog `databasePath` names: a file, or a PostgreSQL URL.
    var location: CatalogLocation { CatalogLocation(databasePath) }
    let logger = Logger(label: "photosync")

    /// Loads the config file (printing its warnings), opens the log file when `logging` says this
    /// command writes one, and registers the API keys known so far for redaction. Creates nothing
    /// but the log file: see `openCatalog`.
    ///
    /// `command` names the command in each log line (`fetch[PID] catalog=...`).
    init(
        _ globals: GlobalOptions, command: String, logging: LogFileUse,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        resolver = SettingsResolver(environment: environment)
        config = try resolver.loadConfigFile(flag: globals.config)
        resolver.knownAPIKeys(config: config).forEach(Secrets.register)
        databasePath = try resolver.databasePath(flag: globals.db, config: config)
        CatalogLocation(databasePath).secrets.forEach(Secrets.register)
        let logPath = logging.path(flag: globals.logFile, resolved: resolver.logFilePath(flag: globals.logFile, config: config))
        if let logPath {
            let tag = LogLineTag(command: command, catalog: Console.safeLine(CatalogLocation(databasePath).display))
            Console.setLogFile(try LogFile(path: logPath), tag: tag)
        }
        config?.warnings.forEach(Console.warning)
        logger.debug("catalog \(CatalogLocation(databasePath).display), config \(config?.path ?? "none")")
    }

    /// Whether a catalog exists there: a file with a database's tables, or a PostgreSQL database
    /// holding a catalog's tables. An empty file, or a database without tables, is not one (a
    /// reading command must not write a schema into it), unless a fetch holds its lock: that
    /// fetch is creating the catalog.
    func catalogExists() throws -> Bool {
        do throws(GraphStoreError) {
            if try PersistentContainer.storeExists(at: location.storeLocation) { return true }
        } catch {
            throw PhotoSyncError.from(error, path: location.display)
        }
        return try location.fetchIsRunning()
    }

    /// Opens the existing catalog; one with several hard links is refused for writing and warned
    /// about for reading.
    /// - Throws: `.noInput` (66) when there is none: a mistyped `--db` must not create one.
    func openCatalog(forReading: Bool = false) throws -> Catalog {
        try refuseSpecialFile()
        guard try catalogExists() else { throw PhotoSyncError.noInput("no catalog at \(location.display) (run photosync fetch first)") }
        if let links = location.storeLocation.hardLinkCount, links > 1 {
            let problem = PhotoSyncError.hardLinkProblem(databasePath, links)
            guard forReading else { throw PhotoSyncError.catalog(problem) }
            Console.warning(problem)
        }
        return try Catalog(location, forReading: forReading, known: true)
    }

    /// A catalog file is a regular file or a new path: SQLite on `/dev/null` would leave a
    /// world-writable `/dev/null-journal` behind, and a folder or a FIFO is a typo.
    func refuseSpecialFile() throws(PhotoSyncError) {
        var info = stat()
        guard let path = location.filePath, stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return }
        throw .catalog("\(path) is not a regular file; give the path of a catalog file (or a new one)")
    }
}
