/// The summary `fetch` prints when it is done.
enum FetchSummaryOutput {
    /// The counts on one line, for the log file: `received 100, inserted 3, ...`.
    static func oneLine(_ summary: FetchSummary) -> String {
        let counts = [
            ("received", summary.received), ("inserted", summary.inserted), ("updated", summary.updated),
            ("unchanged", summary.unchanged), ("repeated", summary.repeated), ("skipped", summary.skipped),
            ("excluded", summary.excluded), ("dates unknown", summary.datesUnknown),
        ]
        return counts.map { "\($0) \($1)" }.joined(separator: ", ") + (summary.gap ? ", gap" : "")
    }

    static func render(_ summary: FetchSummary, as format: ReportFormat, dryRun: Bool) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(summary)
        case .text:
            // A dry run changed nothing: its counts say what the same fetch would change.
            let (insert, update, remove) = dryRun ? ("would insert", "would update", "would remove") : ("inserted", "updated", "removed")
            var lines = [
                ("pages fetched", summary.pages), ("photos received", summary.received),
                (dryRun ? "\(insert) photos" : "photos \(insert)", summary.inserted), (dryRun ? "\(update) photos" : "photos \(update)", summary.updated),
                ("photos unchanged", summary.unchanged), ("photos repeated", summary.repeated),
                ("photos skipped", summary.skipped), ("photos excluded", summary.excluded),
                (dryRun ? "\(insert) photographers" : "photographers \(insert)", summary.photographersInserted),
                (dryRun ? "\(remove) photographers" : "photographers \(remove)", summary.photographersRemoved),
            ]
            if summary.photographersRenamed > 0 { lines.append(("photographers renamed", summary.photographersRenamed)) }
            if summary.datesUnknown > 0 { lines.append(("upload times unknown", summary.datesUnknown)) }
            if summary.morePages > 0 { lines.append(("more pages available", summary.morePages)) }
            if let recheck = summary.recheck {
                lines += [("photos re-checked", recheck.rechecked), ("re-checks left", recheck.left)]
            }
            let labelWidth = lines.map(\.0.count).max() ?? 0
            let counts = lines.map { label, count in
                label + ":" + String(repeating: " ", count: labelWidth - label.count + 1) + "\(count)\n"
            }
            return (dryRun ? "dry run: nothing was saved\n" : "") + counts.joined()
        }
    }
}
