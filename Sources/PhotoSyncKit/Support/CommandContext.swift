import Foundation
import Logging

/// What every command needs before it opens the catalog: the config file and the catalog path.
struct CommandContext {
    let resolver: SettingsResolver
    let config: ConfigFile?
    let databasePath: String
    let logger = Logger(label: "photosync")

    /// Loads the config file (printing its warnings) and prepares the catalog's directory.
    init(_ globals: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        resolver = SettingsResolver(environment: environment)
        config = try resolver.loadConfigFile(flag: globals.config)
        config?.warnings.forEach(Console.warning)
        databasePath = try resolver.databasePath(flag: globals.db, config: config)
        let directory = (databasePath as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw PhotoSyncError.catalog("cannot create directory \(directory): \(error.localizedDescription)")
            }
        }
        logger.debug("catalog \(databasePath), config \(config?.path ?? "none")")
    }

    /// Opens the catalog; one with several hard links is refused for writing and warned about for reading.
    func openCatalog(forReading: Bool = false) throws -> Catalog {
        if let links = CatalogLock.linkCount(atPath: databasePath), links > 1 {
            let problem = CatalogLock.hardLinkProblem(databasePath, links)
            guard forReading else { throw PhotoSyncError.catalog(problem) }
            Console.warning(problem)
        }
        return try Catalog(path: databasePath, forReading: forReading)
    }
}
