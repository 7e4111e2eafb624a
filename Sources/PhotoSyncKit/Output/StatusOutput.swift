/// `status` output: catalog counts and the most recent fetch runs.
enum StatusOutput {
    static func render(_ status: CatalogStatus, as format: ReportFormat, databasePath: String) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(Record(status))
        case .text:
            var text = "catalog:       \(TerminalText.escaped(databasePath))\nphotos:        \(status.photos)\nphotographers: \(status.photographers)\n"
            if status.excludedPhotos + status.excludedPhotographers > 0 {
                text += "excluded:      \(status.excludedPhotos) photo id(s), \(status.excludedPhotographers) photographer(s)\n"
            }
            text += "api calls:     \(status.apiCallsLastHour) in the last hour\n\n"
            guard !status.runs.isEmpty else { return text + "No fetches yet.\n" }
            let table = TableRenderer(columns: [
                .init(header: "STARTED"), .init(header: "OUTCOME"), .init(header: "PAGES", alignRight: true),
                .init(header: "RECEIVED", alignRight: true), .init(header: "INSERTED", alignRight: true),
                .init(header: "UPDATED", alignRight: true), .init(header: "ERROR", maxWidth: 60),
            ])
            text += table.render(status.runs.map { run in
                [
                    timestamp(run.started), run.outcome.rawValue, String(run.summary.pages), String(run.summary.received),
                    String(run.summary.inserted), String(run.summary.updated), run.error.map(Secrets.redact) ?? "",
                ]
            })
            return text
        }
    }

    private struct Record: Encodable {
        var photos: Int
        var photographers: Int
        var excludedPhotos: Int
        var excludedPhotographers: Int
        var apiCallsLastHour: Int
        var runs: [Run]

        init(_ status: CatalogStatus) {
            (photos, photographers, runs) = (status.photos, status.photographers, status.runs.map(Run.init))
            (excludedPhotos, excludedPhotographers) = (status.excludedPhotos, status.excludedPhotographers)
            apiCallsLastHour = status.apiCallsLastHour
        }

        enum CodingKeys: String, CodingKey {
            case photos, photographers, runs
            case excludedPhotos = "excluded_photos"
            case excludedPhotographers = "excluded_photographers"
            case apiCallsLastHour = "api_calls_last_hour"
        }
    }

    /// One run: its times, outcome and error, with the summary's counts at the same level.
    private struct Run: Encodable {
        var run: FetchRunRecord

        enum CodingKeys: String, CodingKey {
            case started, finished, outcome, error
        }

        func encode(to encoder: any Encoder) throws {
            try run.summary.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(timestamp(run.started), forKey: .started)
            try container.encode(run.finished.map(timestamp), forKey: .finished)
            try container.encode(run.outcome.rawValue, forKey: .outcome)
            // Runs recorded before redaction reached the catalog may hold a key: redact on the way out too.
            try container.encode(run.error.map(Secrets.redact), forKey: .error)
        }
    }
}
