import Foundation
import PhotoFeed

/// Every setting in effect and where it came from, for `photosync config`: a flag, an environment
/// variable, the config file (by path) or the default. The API key is never shown.
struct SettingsReport: Sendable {
    struct Entry: Sendable, Encodable {
        var key: String
        var value: String?
        var source: String
    }

    var entries: [Entry]

    init(resolver: SettingsResolver, config: ConfigFile?, databasePath: String, databaseFlag: String?, logFileFlag: String?, filesFlag: String? = nil) throws(PhotoSyncError) {
        let environment = try resolver.environmentSettings()
        let file = config?.settings ?? SettingsLayer()
        func source(_ key: SettingKey, flag: String?, inEnvironment: Bool, inFile: Bool) -> String {
            if flag != nil { return "flag --\(key.rawValue.replacingOccurrences(of: "_", with: "-"))" }
            if inEnvironment { return "env \(key.environmentVariable)" }
            if inFile, let path = config?.path { return "file \(path)" }
            return "default"
        }
        let merged = environment.overriding(file)
        let defaults = SettingsResolver.self
        let environmentHas: (SettingKey) -> Bool = { resolver.environment[$0.environmentVariable].map { !$0.isEmpty } ?? false }
        let fileHas: (SettingKey) -> Bool = { key in
            switch key {
            case .endpoint: file.endpoint != nil
            case .apiKey: file.apiKey != nil
            case .perPage: file.perPage != nil
            case .maxPages: file.maxPages != nil
            case .mergePolicy: file.mergePolicy != nil
            case .timeout: file.timeout != nil
            case .maxTime: file.maxTime != nil
            case .retries: file.retries != nil
            case .db: file.db != nil
            case .logFile: file.logFile != nil
            case .apiBudget: file.apiBudget != nil
            case .searchUser: file.search.user != nil
            case .searchTags: file.search.tags != nil
            case .searchText: file.search.text != nil
            case .caFile: file.caFile != nil
            case .filesDir: file.filesDir != nil
            case .sizes: file.sizes != nil
            case .downloadMaxBytes: file.downloadMaxBytes != nil
            case .download: file.download != nil
            case .serveRemoteImages: file.serveRemoteImages != nil
            case .historyDays: file.historyDays != nil
            case .recheckPerRun: file.recheckPerRun != nil
            }
        }
        let logFile = resolver.logFilePath(flag: logFileFlag, config: config)
        let values: [(SettingKey, String?, String?)] = [
            (.endpoint, merged.endpoint ?? defaults.defaultEndpoint, nil),
            (.apiKey, (merged.apiKey?.isEmpty == false) ? "[redacted]" : nil, nil),
            (.perPage, String(merged.perPage ?? defaults.defaultPerPage), nil),
            (.maxPages, String(merged.maxPages ?? defaults.defaultMaxPages), nil),
            (.mergePolicy, (merged.mergePolicy ?? defaults.defaultMergePolicy).rawValue, nil),
            (.timeout, Self.number(merged.timeout ?? defaults.defaultTimeout), nil),
            (.maxTime, merged.maxTime.map(Self.number), nil),
            (.retries, String(merged.retries ?? defaults.defaultRetries), nil),
            (.db, databasePath, databaseFlag),
            (.logFile, logFile, logFileFlag),
            (.apiBudget, String(merged.apiBudget ?? defaults.defaultAPIBudget), nil),
            (.searchUser, merged.search.user, nil),
            (.searchTags, merged.search.tags, nil),
            (.searchText, merged.search.text, nil),
            (.caFile, merged.caFile.map(resolver.expandingTilde), nil),
            (.filesDir, resolver.filesFolder(flag: filesFlag, config: config, databasePath: databasePath), filesFlag),
            (.sizes, (merged.sizes ?? ImageSize.defaultPreference).joined(separator: ","), nil),
            (.downloadMaxBytes, merged.downloadMaxBytes.map(String.init), nil),
            (.download, String(merged.download ?? false), nil),
            (.serveRemoteImages, String(merged.serveRemoteImages ?? false), nil),
            (.historyDays, String(merged.historyDays ?? defaults.defaultHistoryDays), nil),
            (.recheckPerRun, String(merged.recheckPerRun ?? 0), nil),
        ]
        entries = values.map { key, value, flag in
            Entry(key: key.rawValue, value: value, source: source(key, flag: flag, inEnvironment: environmentHas(key), inFile: fileHas(key)))
        }
        entries.append(Entry(key: "config", value: config?.path, source: config == nil ? Self.notFound(resolver) : "file"))
    }

    /// Where a config file was looked for: `none at /home/me/.config/photosync/config.yaml`.
    private static func notFound(_ resolver: SettingsResolver) -> String {
        resolver.defaultConfigPath.map { "none at \($0)" } ?? "none (HOME and XDG_CONFIG_HOME are not set)"
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
