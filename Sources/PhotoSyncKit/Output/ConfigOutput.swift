/// `config` output: `key: value (source)` lines, or one JSON object of `{value, source}` per key.
enum ConfigOutput {
    static func render(_ report: SettingsReport, as format: ReportFormat) throws -> String {
        switch format {
        case .json:
            let object = Dictionary(uniqueKeysWithValues: report.entries.map { ($0.key, Value(value: $0.value, source: $0.source)) })
            return try JSONOutput.render(object)
        case .text:
            let width = report.entries.map(\.key.count).max() ?? 0
            return report.entries.map { entry in
                let padding = String(repeating: " ", count: width - entry.key.count + 1)
                return TerminalText.escaped("\(entry.key):\(padding)\(entry.value ?? "not set")  (\(entry.source))") + "\n"
            }.joined()
        }
    }

    private struct Value: Encodable {
        var value: String?
        var source: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
            try container.encode(source, forKey: .source)
        }

        enum CodingKeys: String, CodingKey { case value, source }
    }
}
