import PhotoFeed
import Foundation

/// Resolves settings with the precedence flags > environment > config file > defaults.
///
/// The environment is a parameter so tests never touch the process environment.
struct SettingsResolver: Sendable {
    static let defaultEndpoint = "https://api.flickr.com/services/rest/"
    static let defaultPerPage = 100
    static let defaultMaxPages = 10
    static let defaultMergePolicy = MergePolicyChoice.objectTrump
    static let defaultTimeout = 30.0
    static let defaultRetries = 3
    static let defaultAPIBudget = 3_000
    /// Days of change history a fetch keeps (`history_days`): a season of cron runs.
    static let defaultHistoryDays = 90

    var environment: [String: String]

    /// `--config`, else `PHOTOSYNC_CONFIG` (either must exist), else the XDG default when it exists.
    func loadConfigFile(flag: String?) throws(PhotoSyncError) -> ConfigFile? {
        if let explicit = flag ?? value("PHOTOSYNC_CONFIG") {
            return try ConfigFile.load(path: expandingTilde(explicit))
        }
        guard let path = defaultConfigPath, FileManager.default.fileExists(atPath: path) else { return nil }
        return try ConfigFile.load(path: path)
    }

    var defaultConfigPath: String? {
        xdgDirectory("XDG_CONFIG_HOME", underHome: ".config").map { $0 + "/photosync/config.yaml" }
    }

    /// `--db`, else `PHOTOSYNC_DB`, else the config file's `db`, else the XDG data directory.
    /// A leading `~/` is the home folder wherever the path came from (`--db=~/x` reaches us unexpanded).
    func databasePath(flag: String?, config: ConfigFile?) throws(PhotoSyncError) -> String {
        if let path = flag ?? value(SettingKey.db.environmentVariable) ?? config?.settings.db {
            return expandingTilde(path)
        }
        guard let dataHome = xdgDirectory("XDG_DATA_HOME", underHome: ".local/share") else {
            throw .configuration("cannot choose a catalog location because HOME is not set; pass --db or set PHOTOSYNC_DB")
        }
        return dataHome + "/photosync/catalog.sqlite"
    }

    /// `--files`, else `PHOTOSYNC_FILES`, else `files_dir`, else `files/` beside a SQLite catalog;
    /// nil for a PostgreSQL catalog without one (its files are per host: each host names its own).
    func filesFolder(flag: String?, config: ConfigFile?, databasePath: String) -> String? {
        if let path = flag ?? value(SettingKey.filesDir.environmentVariable) ?? config?.settings.filesDir {
            return Self.absolute(expandingTilde(path))
        }
        return CatalogLocation(databasePath).folder.map { Self.absolute($0 + "/files") }
    }

    /// `file.path` is absolute whatever folder the command ran in.
    private static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (joined as NSString).standardizingPath
    }

    /// `--log-file`, else `PHOTOSYNC_LOG_FILE`, else the config file's `log_file`; nil: no log file.
    func logFilePath(flag: String?, config: ConfigFile?) -> String? {
        (flag ?? value(SettingKey.logFile.environmentVariable) ?? config?.settings.logFile).map(expandingTilde)
    }

    /// The API key from the environment or the config file, without requiring one (for redaction).
    func knownAPIKeys(config: ConfigFile?) -> [String] {
        [value(SettingKey.apiKey.environmentVariable), config?.settings.apiKey].compactMap { $0 }
    }

    /// The `PHOTOSYNC_*` variables as a settings layer; a bad value names its variable.
    func environmentSettings() throws(PhotoSyncError) -> SettingsLayer {
        var layer = SettingsLayer()
        for key in SettingKey.allCases where key != .db && key != .logFile && key != .filesDir {
            guard let text = value(key.environmentVariable) else { continue }
            do {
                try layer.set(key, from: text)
            } catch {
                throw .configuration("\(key.environmentVariable): \(error.description)")
            }
        }
        return layer
    }

    /// Everything `fetch` needs; an http(s) endpoint without an API key is a configuration error,
    /// and so is `search` without any search term.
    func fetchSettings(
        flags: SettingsLayer, pages: Int?, config: ConfigFile?, dryRun: Bool, waitForLock: Bool, search: Bool = false
    ) throws(PhotoSyncError) -> FetchSettings {
        let environment = try environmentSettings()
        let merged = flags.overriding(environment).overriding(config?.settings ?? SettingsLayer())
        let endpoint = merged.endpoint ?? Self.defaultEndpoint
        let apiKey = merged.apiKey.flatMap { $0.isEmpty ? nil : $0 }
        if apiKey == nil, URL(string: endpoint)?.scheme?.lowercased() != "file" {
            let file = config?.path ?? defaultConfigPath ?? "the config file"
            throw .configuration(
                "no API key for \(endpoint): set PHOTOSYNC_API_KEY, or api_key in \(file) (mode 0600); --api-key works too but shows in ps")
        }
        var settings = FetchSettings(
            endpoint: endpoint, apiKey: apiKey, pages: pages,
            maxPages: merged.maxPages ?? Self.defaultMaxPages, perPage: merged.perPage ?? Self.defaultPerPage,
            mergePolicy: merged.mergePolicy ?? Self.defaultMergePolicy, timeout: merged.timeout ?? Self.defaultTimeout,
            retries: merged.retries ?? Self.defaultRetries, dryRun: dryRun, waitForLock: waitForLock)
        settings.apiKeySource = flags.apiKey != nil ? "--api-key"
            : environment.apiKey != nil ? SettingKey.apiKey.environmentVariable
            : "api_key in \(config?.path ?? "the config file")"
        settings.apiBudget = merged.apiBudget ?? Self.defaultAPIBudget
        settings.maxTime = merged.maxTime
        settings.historyDays = merged.historyDays ?? Self.defaultHistoryDays
        settings.recheckPerRun = merged.recheckPerRun ?? 0
        if let caFile = merged.caFile {
            settings.caFile = try checkedCAFile(caFile, flagGiven: flags.caFile != nil, config: config)
        }
        if search {
            guard !merged.search.isEmpty else {
                throw .usage("--search needs --user, --tags or --text (or search_user, search_tags, search_text in the config)")
            }
            settings.search = merged.search
        }
        return settings
    }

    /// The CA file at `path` (tilde expanded) when readable, else an error naming where it was set.
    func checkedCAFile(_ path: String, flagGiven: Bool, config: ConfigFile?) throws(PhotoSyncError) -> String {
        let source = flagGiven ? "--ca-file"
            : value(SettingKey.caFile.environmentVariable) != nil ? SettingKey.caFile.environmentVariable
            : "ca_file in \(config?.path ?? "the config file")"
        return try readableCAFile(expandingTilde(path), source: source)
    }

    /// `path` when it is a readable file; otherwise a configuration error naming `source`, rather
    /// than a TLS failure on every request (libcurl would only say it cannot read the CA file).
    private func readableCAFile(_ path: String, source: String) throws(PhotoSyncError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .configuration("\(source) \(path): no such file")
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: path) else {
            throw .configuration("\(source) \(path): not a readable file")
        }
        return path
    }

    /// An environment value; empty counts as unset, as in most shells' `VAR= command` idiom.
    private func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where photosync keeps what it can make again (serve's search index): the XDG cache directory.
    func cacheFolder() -> String? {
        xdgDirectory("XDG_CACHE_HOME", underHome: ".cache").map { $0 + "/photosync" }
    }

    /// `$name` when it is an absolute path (as the XDG spec requires), else `$HOME/underHome`.
    private func xdgDirectory(_ name: String, underHome: String) -> String? {
        if let directory = value(name), directory.hasPrefix("/") { return directory }
        return value("HOME").map { $0 + "/" + underHome }
    }

    func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = value("HOME") else { return path }
        return home + path.dropFirst()
    }
}
