import Foundation

/// Shell completion of `--photographer`: the names in the catalog that `--db` (or PHOTOSYNC_DB,
/// the config file's `db`, or the default) names, read-only, that start with what was typed;
/// nothing when there is no catalog.
enum PhotographerCompletion {
    static func names(_ arguments: [String], _ index: Int, _ prefix: String) -> [String] {
        let resolver = SettingsResolver(environment: ProcessInfo.processInfo.environment)
        let config = (try? resolver.loadConfigFile(flag: value(of: "--config", in: arguments))) ?? nil
        guard let path = try? resolver.databasePath(flag: value(of: "--db", in: arguments), config: config),
            FileManager.default.fileExists(atPath: path), let catalog = try? Catalog(path: path, forReading: true)
        else { return [] }
        return ((try? catalog.photographers().map(\.name)) ?? []).filter { $0.hasPrefix(prefix) }
    }

    /// The value given to `option` (`--db PATH` or `--db=PATH`) in the words being completed.
    private static func value(of option: String, in arguments: [String]) -> String? {
        for (index, word) in arguments.enumerated() {
            if word == option, index + 1 < arguments.count { return arguments[index + 1] }
            if word.hasPrefix(option + "=") { return String(word.dropFirst(option.count + 1)) }
        }
        return nil
    }
}
