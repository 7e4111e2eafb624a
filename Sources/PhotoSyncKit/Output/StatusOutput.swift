/// `status` output: catalog counts and the most recent fetch runs.
enum StatusOutput {
    /// `lineWidth` (the terminal's) cuts the catalog's path from the left and narrows the runs'
    /// table, down to one block per run; nil: no limit.
    static func render(
        _ status: CatalogStatus, as format: ReportFormat, databasePath: String, lineWidth: Int? = nil, time: TableTime = .utc
    ) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(Record(status))
        case .text:
            let path = TerminalText.escaped(databasePath)
            var text = "catalog:       \(lineWidth.map { cutFromLeft(path, to: $0 - 15) } ?? path)\n"
            text += "photos:        \(status.photos)\nphotographers: \(status.photographers)\n"
            if status.excludedPhotos + status.excludedPhotographers > 0 {
                text += "excluded:      \(status.excludedPhotos) photo id(s), \(status.excludedPhotographers) photographer(s)\n"
            }
            text += "api calls:     \(status.apiCallsLastHour) in the last hour\n"
            if status.files + status.filesUnavailable > 0 {
                text += "files:         \(status.files) (\(status.fileBytes) bytes), \(status.filesPending) to download, \(status.filesUnavailable) unavailable\n"
            }
            text += sources(status.sources, time: time, lineWidth: lineWidth) + "\n"
            guard !status.runs.isEmpty else { return text + "No fetches yet.\n" }
            // The error column only when a run has one: an empty last column costs a narrow pane its width.
            let withErrors = status.runs.contains { $0.error?.isEmpty == false }
            var columns: [TableRenderer.Column] = [
                .init(header: "RUN", alignRight: true), .init(header: "STARTED"), .init(header: "OUTCOME"), .init(header: "PAGES", alignRight: true),
                .init(header: "RECEIVED", alignRight: true, dropsWhenNarrow: true), .init(header: "INSERTED", alignRight: true),
                .init(header: "UPDATED", alignRight: true, dropsWhenNarrow: true),
            ]
            if withErrors { columns.append(.init(header: "ERROR", maxWidth: 60, shrinks: true)) }
            text += TableRenderer(columns: columns, lineWidth: lineWidth).render(status.runs.map { run in
                let cells = [
                    run.id.map(String.init) ?? "-", time.text(run.started), outcome(run), String(run.summary.pages), String(run.summary.received),
                    String(run.summary.inserted), String(run.summary.updated),
                ]
                return withErrors ? cells + [run.error.map(Secrets.redact) ?? ""] : cells
            })
            return text
        }
    }

    /// `succeeded (gap)` for a run that warned photos may be missing: the table must not hide what
    /// JSON says with `gap: true`.
    static func outcome(_ run: FetchRunRecord) -> String {
        run.summary.gap ? "\(run.outcome.rawValue) (gap)" : run.outcome.rawValue
    }

    /// `sources:` and two lines per source: complete, or catching up on a walk a page limit cut,
    /// then its last success (nothing when no fetch ran yet). A long search is cut to `lineWidth`.
    static func sources(_ sources: [SourceStatus], time: TableTime, lineWidth: Int? = nil) -> String {
        guard !sources.isEmpty else { return "" }
        return "sources:\n" + sources.map { source in
            let state = source.backfillPending ? "catching up" : source.complete ? "complete" : "never fetched successfully"
            let line = "  \(TerminalText.escaped(source.source)): \(state)"
            let fitted = lineWidth.map { TableRenderer.width(of: line) > $0 ? String(line.prefix(max(1, $0 - 1))) + "…" : line } ?? line
            return fitted + "\n" + (source.lastSuccess.map { "    last success \(time.text($0))\n" } ?? "")
        }.joined()
    }

    /// `…/photosync/catalog.sqlite`: a path's end says most about it.
    static func cutFromLeft(_ text: String, to width: Int) -> String {
        guard TableRenderer.width(of: text) > width, width > 1 else { return text }
        var kept = ""
        for character in text.reversed() {
            guard TableRenderer.width(of: String(character) + kept) <= width - 1 else { break }
            kept = String(character) + kept
        }
        return "…" + kept
    }

    private struct Record: Encodable {
        var photos: Int
        var photographers: Int
        var excludedPhotos: Int
        var excludedPhotographers: Int
        var apiCallsLastHour: Int
        var sources: [Source]
        var files: Int
        var fileBytes: Int
        var filesPending: Int
        var filesUnavailable: Int
        var runs: [Run]

        init(_ status: CatalogStatus) {
            (photos, photographers, runs) = (status.photos, status.photographers, status.runs.map(Run.init))
            (excludedPhotos, excludedPhotographers) = (status.excludedPhotos, status.excludedPhotographers)
            apiCallsLastHour = status.apiCallsLastHour
            sources = status.sources.map(Source.init)
            (files, fileBytes, filesUnavailable) = (status.files, status.fileBytes, status.filesUnavailable)
            filesPending = status.filesPending
        }

        enum CodingKeys: String, CodingKey {
            case photos, photographers, runs, sources
            case excludedPhotos = "excluded_photos"
            case excludedPhotographers = "excluded_photographers"
            case apiCallsLastHour = "api_calls_last_hour"
            case files
            case fileBytes = "file_bytes"
            case filesPending = "files_pending"
            case filesUnavailable = "files_unavailable"
        }
    }

    /// One source: `last_success` is null until a fetch of it succeeds.
    private struct Source: Encodable {
        var source: String
        var complete: Bool
        var lastSuccess: String?
        var backfillPending: Bool

        init(_ status: SourceStatus) {
            (source, complete, backfillPending) = (status.source, status.complete, status.backfillPending)
            lastSuccess = status.lastSuccess.map(timestamp)
        }

        enum CodingKeys: String, CodingKey {
            case source, complete
            case lastSuccess = "last_success"
            case backfillPending = "backfill_pending"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encode(complete, forKey: .complete)
            try container.encode(lastSuccess, forKey: .lastSuccess)
            try container.encode(backfillPending, forKey: .backfillPending)
        }
    }

    /// One run: its times, outcome and error, with the summary's counts at the same level.
    private struct Run: Encodable {
        var run: FetchRunRecord

        enum CodingKeys: String, CodingKey {
            case id, started, finished, outcome, error
        }

        func encode(to encoder: any Encoder) throws {
            try run.summary.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(run.id, forKey: .id)
            try container.encode(timestamp(run.started), forKey: .started)
            try container.encode(run.finished.map(timestamp), forKey: .finished)
            try container.encode(run.outcome.rawValue, forKey: .outcome)
            // Runs recorded before redaction reached the catalog may hold a key: redact on the way out too.
            try container.encode(run.error.map(Secrets.redact), forKey: .error)
        }
    }
}
