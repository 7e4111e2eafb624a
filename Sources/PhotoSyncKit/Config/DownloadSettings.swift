import PhotoFeed

/// Everything `download` (and `fetch --download`) needs, resolved flags > environment > config >
/// defaults like fetch's settings.
struct DownloadSettings: Sendable, Equatable {
    /// Absolute: `file.path` and the temporary files live here.
    var folder: String
    var sizes = ImageSize.defaultPreference
    var jobs = DownloadSettings.defaultJobs
    var maxBytes: Int?
    var timeout = SettingsResolver.defaultTimeout
    var retries = SettingsResolver.defaultRetries
    var caFile: String?
    var retryUnavailable = false

    static let defaultJobs = 8
    static let jobsRange = 1...64

    /// The client for images: as many kept connections as transfers at once, and no body cap
    /// beyond the byte budget (an original may be 100 MB; it streams to disk).
    var httpConfiguration: HTTPClientConfiguration {
        var configuration = HTTPClientConfiguration(
            timeout: max(timeout, 60), retries: retries, maxResponseBytes: Int.max / 2, longestRetryAfter: 120, caFile: caFile)
        configuration.connectTimeout = min(10, timeout)
        configuration.idleConnections = jobs
        return configuration
    }
}

extension SettingsResolver {
    /// `download: true` in the environment (PHOTOSYNC_DOWNLOAD) or the config file.
    func wantsDownload(config: ConfigFile?) throws(PhotoSyncError) -> Bool {
        try environmentSettings().download ?? config?.settings.download ?? false
    }

    /// `download`'s settings; a PostgreSQL catalog without a files folder is a configuration error
    /// (its files are per host: each host says where its copies go).
    func downloadSettings(flags: SettingsLayer, filesFlag: String?, config: ConfigFile?, databasePath: String) throws(PhotoSyncError) -> DownloadSettings {
        guard let folder = filesFolder(flag: filesFlag, config: config, databasePath: databasePath) else {
            throw .configuration("a postgres:// catalog needs a files folder on each host: pass --files DIR, or set PHOTOSYNC_FILES or files_dir")
        }
        let merged = flags.overriding(try environmentSettings()).overriding(config?.settings ?? SettingsLayer())
        var settings = DownloadSettings(folder: folder)
        settings.sizes = merged.sizes ?? ImageSize.defaultPreference
        settings.maxBytes = merged.downloadMaxBytes
        settings.timeout = merged.timeout ?? Self.defaultTimeout
        settings.retries = merged.retries ?? Self.defaultRetries
        settings.caFile = try merged.caFile.map { path throws(PhotoSyncError) in try checkedCAFile(path, flagGiven: flags.caFile != nil, config: config) }
        return settings
    }
}
