/// `excluded` output in each format: what deletes excluded, with when and by which command.
enum ExclusionListOutput {
    static let csvHeader = ["kind", "value", "excluded", "photographer", "command"]

    static func render(
        _ exclusions: [ExclusionListing], as format: TabularFormat, lineWidth: Int? = nil, time: TableTime = .utc
    ) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(exclusions.map(Record.init))
        case .jsonl:
            return try JSONLines.render(exclusions.map(Record.init))
        case .csv:
            return CSVWriter.render(header: csvHeader, rows: exclusions.map { [$0.kind.rawValue, $0.value, timestamp($0.excluded), $0.photographer ?? "", $0.command] })
        case .table:
            guard !exclusions.isEmpty else { return "Nothing is excluded.\n" }
            let table = TableRenderer(columns: [
                .init(header: "KIND"), .init(header: "PHOTOGRAPHER OR ID", maxWidth: 40, shrinks: true), .init(header: "EXCLUDED"),
                .init(header: "BY", maxWidth: 50, shrinks: true),
            ], lineWidth: lineWidth)
            return table.render(exclusions.map { [$0.kind.rawValue, $0.value, time.text($0.excluded), $0.command] })
        }
    }

    /// One exclusion in JSON: `photographer` is null for a photo `delete ID` excluded, and for a photographer.
    private struct Record: Encodable {
        var kind, value, excluded, command: String
        var photographer: String?

        init(_ exclusion: ExclusionListing) {
            (kind, value, excluded) = (exclusion.kind.rawValue, exclusion.value, timestamp(exclusion.excluded))
            (photographer, command) = (exclusion.photographer, exclusion.command)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(value, forKey: .value)
            try container.encode(excluded, forKey: .excluded)
            try container.encode(photographer, forKey: .photographer)
            try container.encode(command, forKey: .command)
        }

        enum CodingKeys: String, CodingKey { case kind, value, excluded, photographer, command }
    }
}
