import PhotoFeed
import Foundation

/// A setting that can come from the config file or the environment, named as in the config file.
enum SettingKey: String, CaseIterable, Sendable {
    case endpoint
    case apiKey = "api_key"
    case perPage = "per_page"
    case maxPages = "max_pages"
    case mergePolicy = "merge_policy"
    case timeout
    case maxTime = "max_time"
    case retries
    case db
    case logFile = "log_file"
    case apiBudget = "api_budget"
    case searchUser = "search_user"
    case searchTags = "search_tags"
    case searchText = "search_text"
    case caFile = "ca_file"
    case filesDir = "files_dir"
    case sizes
    case downloadMaxBytes = "download_max_bytes"
    case download
    case serveRemoteImages = "serve_remote_images"
    case historyDays = "history_days"
    case recheckPerRun = "recheck_per_run"

    /// The environment variable that overrides the config file.
    var environmentVariable: String {
        switch self {
        case .endpoint: "PHOTOSYNC_URL"
        case .filesDir: "PHOTOSYNC_FILES"
        default: "PHOTOSYNC_" + rawValue.uppercased()
        }
    }

    /// Why `value` is out of range for this key, or nil when it is fine (flags, environment and file share these rules).
    func rangeProblem(_ value: Double) -> String? {
        switch self {
        case .perPage: (1...500).contains(value) ? nil : "must be between 1 and 500"
        case .maxPages: value >= 1 ? nil : "must be at least 1"
        case .timeout: value > 0 ? nil : "must be greater than 0"
        case .maxTime: value > 0 ? (value <= FetchDeadline.longest ? nil : "must be at most \(Int(FetchDeadline.longest)) (a year)") : "must be greater than 0"
        case .retries: (0...10).contains(value) ? nil : "must be between 0 and 10"
        case .apiBudget, .downloadMaxBytes: value >= 1 ? nil : "must be at least 1"
        case .historyDays: (0...36_500).contains(value) ? nil : "must be between 0 and 36500"
        case .recheckPerRun: value >= 0 ? nil : "must be 0 or more"
        case .endpoint, .apiKey, .mergePolicy, .db, .searchUser, .searchTags, .searchText, .logFile, .caFile, .filesDir, .sizes, .download, .serveRemoteImages: nil
        }
    }
}

/// Why an endpoint cannot be used, or nil when it is an http(s) or file URL.
func endpointProblem(_ endpoint: String) -> String? {
    guard let scheme = URL(string: endpoint)?.scheme?.lowercased(), ["http", "https", "file"].contains(scheme)
    else { return "must be an http(s):// or file:// URL" }
    return nil
}

/// Settings from one source (flags, environment or config file); nil means "not set here".
struct SettingsLayer: Equatable, Sendable {
    var endpoint: String?
    var apiKey: String?
    var perPage: Int?
    var maxPages: Int?
    var mergePolicy: MergePolicyChoice?
    var timeout: Double?
    /// Seconds the whole fetch may take (`max_time`); nil: no limit.
    var maxTime: Double?
    var retries: Int?
    var db: String?
    var logFile: String?
    var apiBudget: Int?
    var search = FeedSearch()
    /// PEM file of CA certificates that verify the endpoint instead of the system's (`ca_file`).
    var caFile: String?
    /// The folder downloaded images are kept in (`files_dir`).
    var filesDir: String?
    /// Flickr size suffixes to download, most wanted first (`sizes`).
    var sizes: [String]?
    /// Bytes one download run may transfer before it stops (`download_max_bytes`).
    var downloadMaxBytes: Int?
    /// Whether `fetch` downloads the images too (`download`).
    var download: Bool?
    /// Whether `serve` may show Flickr's image for a photo without a downloaded file (`serve_remote_images`).
    var serveRemoteImages: Bool?
    /// Days of change history a fetch keeps (`history_days`).
    var historyDays: Int?
    /// Photos each fetch re-checks with what is left of its budget (`recheck_per_run`).
    var recheckPerRun: Int?

    /// This layer with unset values taken from `lower`.
    func overriding(_ lower: SettingsLayer) -> SettingsLayer {
        SettingsLayer(
            endpoint: endpoint ?? lower.endpoint, apiKey: apiKey ?? lower.apiKey,
            perPage: perPage ?? lower.perPage, maxPages: maxPages ?? lower.maxPages,
            mergePolicy: mergePolicy ?? lower.mergePolicy, timeout: timeout ?? lower.timeout, maxTime: maxTime ?? lower.maxTime,
            retries: retries ?? lower.retries, db: db ?? lower.db, logFile: logFile ?? lower.logFile, apiBudget: apiBudget ?? lower.apiBudget,
            search: search.overriding(lower.search), caFile: caFile ?? lower.caFile, filesDir: filesDir ?? lower.filesDir,
            sizes: sizes ?? lower.sizes, downloadMaxBytes: downloadMaxBytes ?? lower.downloadMaxBytes, download: download ?? lower.download,
            serveRemoteImages: serveRemoteImages ?? lower.serveRemoteImages, historyDays: historyDays ?? lower.historyDays,
            recheckPerRun: recheckPerRun ?? lower.recheckPerRun)
    }

    /// Bytes an API key may have: Flickr's are 32; a config holding 100 MB there once cost a
    /// fetch a minute and 1.7 GB redacting it from every line.
    static let longestAPIKey = 1024

    /// Why `text` cannot be an API key (without quoting it), if it cannot.
    static func apiKeyProblem(_ text: String) -> String? {
        text.utf8.count > longestAPIKey ? "longer than \(longestAPIKey) bytes (\(text.utf8.count)): not an API key" : nil
    }

    static func flag(_ text: String) throws(SettingProblem) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: throw SettingProblem("expected true or false, got \"\(text)\"")
        }
    }

    /// Sets `key` from its textual form (a YAML scalar or an environment value).
    ///
    /// Throws a description of the problem without the source; callers add the file or variable name.
    /// The API key never appears in a problem.
    mutating func set(_ key: SettingKey, from text: String) throws(SettingProblem) {
        switch key {
        case .endpoint:
            if let problem = endpointProblem(text) { throw SettingProblem("\(problem), got \"\(text)\"") }
            endpoint = text
        case .apiKey:
            if let problem = Self.apiKeyProblem(text) { throw SettingProblem(problem) }
            apiKey = text
        case .db:
            db = text
        case .logFile:
            logFile = text
        case .caFile:
            caFile = text
        case .filesDir:
            filesDir = text
        case .sizes:
            sizes = try ImageSize.list(text)
        case .download:
            download = try Self.flag(text)
        case .serveRemoteImages:
            serveRemoteImages = try Self.flag(text)
        case .searchUser:
            search.user = text
        case .searchTags:
            search.tags = text
        case .searchText:
            search.text = text
        case .mergePolicy:
            guard let policy = MergePolicyChoice(rawValue: text) else {
                let choices = MergePolicyChoice.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingProblem("must be one of \(choices), got \"\(text)\"")
            }
            mergePolicy = policy
        case .timeout, .maxTime:
            guard let value = Double(text), value.isFinite else { throw SettingProblem("expected a number, got \"\(text)\"") }
            try Self.check(key, value, text)
            if key == .timeout { timeout = value } else { maxTime = value }
        case .perPage, .maxPages, .retries, .apiBudget, .downloadMaxBytes, .historyDays, .recheckPerRun:
            guard let value = Int(text) else { throw SettingProblem("expected an integer, got \"\(text)\"") }
            try Self.check(key, Double(value), text)
            switch key {
            case .perPage: perPage = value
            case .maxPages: maxPages = value
            case .apiBudget: apiBudget = value
            case .downloadMaxBytes: downloadMaxBytes = value
            case .historyDays: historyDays = value
            case .recheckPerRun: recheckPerRun = value
            default: retries = value
            }
        }
    }

    private static func check(_ key: SettingKey, _ value: Double, _ text: String) throws(SettingProblem) {
        if let problem = key.rangeProblem(value) { throw SettingProblem("\(problem), got \(text)") }
    }
}

/// What is wrong with one setting's value, phrased to follow the setting's name.
struct SettingProblem: Error, Equatable {
    var description: String
    init(_ description: String) { self.description = description }
}
