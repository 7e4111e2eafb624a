/// The summary `download` prints when it is done.
enum DownloadSummaryOutput {
    /// The counts on one line, for the log file.
    static func oneLine(_ summary: DownloadSummary) -> String {
        "downloaded \(summary.downloaded) (\(summary.bytes) bytes), present \(summary.present), unavailable \(summary.unavailable), "
            + "failed \(summary.failed), pending \(summary.pending)"
    }

    static func render(_ summary: DownloadSummary, as format: ReportFormat, dryRun: Bool) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(summary)
        case .text:
            let lines = [
                ("files downloaded", summary.downloaded), ("bytes downloaded", summary.bytes), ("files present", summary.present),
                ("photos unavailable", summary.unavailable), ("transfers failed", summary.failed),
                (dryRun ? "would download" : "still to download", summary.pending),
            ]
            let width = lines.map(\.0.count).max() ?? 0
            let text = lines.map { label, count in label + ":" + String(repeating: " ", count: width - label.count + 1) + "\(count)\n" }
            return (dryRun ? "dry run: nothing was downloaded\n" : "") + text.joined()
        }
    }
}
