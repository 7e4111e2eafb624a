import ArgumentParser
import Foundation

/// `photosync download`: download, verify and keep the image of every catalog photo that has no
/// verified file yet.
struct DownloadCommand: GlobalOptionsCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download the images of the catalog's photos into the files folder.",
        discussion: """
            Each image goes to a temporary file, is verified (its size against Content-Length, its \
            first bytes against the JPEG, PNG, GIF and WebP signatures), fsynced and renamed to \
            <files>/<photo id>_<size>.<jpg|png|gif|webp>; only then does the catalog record it, with \
            its sha256. Photos whose file is present are skipped without a request. 404, 403, 410 \
            and content that is no image mark a photo unavailable; it is tried again after a day \
            (doubling), or with --retry-unavailable.

            Exit statuses: 0 every photo is downloaded, present or unavailable; 1 some transfers \
            failed (run again); 74 the disk is full (what was completed is kept); 75 --max-bytes or \
            --max-time stopped the run (run again to continue); 78 no files folder for a postgres:// \
            catalog.

            Examples:
              photosync download
              photosync download --photographer "Ana Lima" --jobs 4
              photosync download --dry-run --format json
            """
    )

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var options: DownloadOptions

    @Flag(help: "Print what would be downloaded; download and change nothing.")
    var dryRun = false

    @Option(name: [.customShort("f"), .long], help: "Summary format.")
    var format: ReportFormat = .text

    func validate() throws { try options.validate() }

    func run() throws {
        let start = ContinuousClock.now
        try reportingErrors {
            let context = try CommandContext(globals, command: Self.name, logging: dryRun ? .readsCatalog : .changesCatalog)
            let settings = try options.settings(context, files: globals.files)
            let catalog = try context.openCatalog(forReading: dryRun)
            if let photographer = options.photographer, !(try catalog.hasPhotographer(named: photographer)) {
                throw PhotoSyncError.notFound("no photographer named \(photographer) in the catalog")
            }
            var pass = DownloadPass(catalog: catalog, settings: settings, photographer: options.photographer)
            pass.deadline = options.transfer.maxTime.map { FetchDeadline(seconds: $0, from: start) }
            if dryRun {
                try Console.write(try DownloadSummaryOutput.render(try pass.preview(), as: format, dryRun: true))
                return
            }
            try Self.finish(pass, format: format, quiet: globals.quiet)
        }
    }

    /// Runs `pass`, prints its summary and exits with the status it calls for.
    /// After a fetch (`fetched`), JSON is one object: the fetch's counts with the download's under `download`.
    static func finish(_ pass: DownloadPass, format: ReportFormat, quiet: Bool, fetched: FetchSummary? = nil) throws {
        let (summary, stop) = try pass.run()
        Console.info("download finished: \(DownloadSummaryOutput.oneLine(summary))")
        if let fetched, format == .json {
            try Console.write(try JSONOutput.render(FetchWithDownload(fetch: fetched, download: summary)))
        } else if !(quiet && format == .text) {
            try Console.write(try DownloadSummaryOutput.render(summary, as: format, dryRun: false))
        }
        let status = try exitStatus(summary, stop, maxTime: pass.deadline?.seconds)
        if status != 0 { throw ExitCode(status) }
    }

    /// 74 for a full disk, 75 for a limit, 1 for failed transfers, else 0; a stop says so on stderr.
    static func exitStatus(_ summary: DownloadSummary, _ stop: DownloadPass.Stop, maxTime: Double?) throws -> Int32 {
        switch stop {
        case .diskFull(let message):
            throw PhotoSyncError.catalog("disk full writing \(message); \(summary.downloaded) file(s) downloaded were kept")
        case .byteLimit:
            Console.diagnostic("stopped at the --max-bytes limit: \(summary.pending) file(s) still to download; run again to continue")
            return PhotoSyncError.tryLater("").exitStatus
        case .timeLimit:
            let limit = PhotoSyncError.timeLimit(seconds: maxTime ?? 0)
            Console.diagnostic("\(limit.message): \(summary.pending) file(s) still to download; run again to continue")
            return limit.exitStatus
        case .none:
            return summary.failed > 0 ? 1 : 0
        }
    }
}

/// `fetch --download --format json`: the fetch summary's keys plus `download`.
private struct FetchWithDownload: Encodable {
    var fetch: FetchSummary
    var download: DownloadSummary

    enum CodingKeys: String, CodingKey { case download }

    func encode(to encoder: any Encoder) throws {
        try fetch.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(download, forKey: .download)
    }
}
