import ArgumentParser

/// `download`'s own options, plus the request options it shares with `fetch` (`TransferOptions`).
struct DownloadOptions: ParsableArguments {
    @Option(name: [.customShort("p"), .long], help: "Only this photographer's photos.", completion: .custom(PhotographerCompletion.names))
    var photographer: String?

    @Option(help: ArgumentHelp(
        "Size suffixes to download, most wanted first, e.g. o,k,h,l (env PHOTOSYNC_SIZES, config sizes; default l).",
        valueName: "list"))
    var size: String?

    @Option(help: "Transfers at once, 1 to 64 (default 8).")
    var jobs: Int?

    @Option(help: ArgumentHelp(
        "Stop after this many bytes (env PHOTOSYNC_DOWNLOAD_MAX_BYTES, config download_max_bytes); exits 75.", valueName: "bytes"))
    var maxBytes: Int?

    @OptionGroup var transfer: TransferOptions

    @Flag(help: "Try unavailable photos again now instead of after their back-off.")
    var retryUnavailable = false

    func validate() throws {
        if let jobs, !DownloadSettings.jobsRange.contains(jobs) { throw ValidationError("--jobs must be between 1 and 64") }
        if let maxBytes, maxBytes < 1 { throw ValidationError("--max-bytes must be at least 1") }
        if let size {
            do { _ = try ImageSize.list(size) } catch { throw ValidationError("--size \(error.description)") }
        }
    }

    /// The resolved settings, these flags first.
    func settings(_ context: CommandContext, files: String?) throws -> DownloadSettings {
        var flags = SettingsLayer(timeout: transfer.timeout, retries: transfer.retries, caFile: transfer.caFile)
        flags.sizes = try size.map { text in try ImageSize.list(text) }
        flags.downloadMaxBytes = maxBytes
        var settings = try context.resolver.downloadSettings(
            flags: flags, filesFlag: files, config: context.config, databasePath: context.databasePath)
        settings.jobs = jobs ?? DownloadSettings.defaultJobs
        settings.retryUnavailable = retryUnavailable
        return settings
    }
}
