import Foundation

/// JSON as photosync prints it: one compact document per run, sorted keys, so scripts and `jq` get stable output.
enum JSONOutput {
    static func render(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}

/// Timestamps in every output format: ISO 8601 in UTC, like `2024-05-01T12:00:00Z`.
func timestamp(_ date: Date) -> String {
    date.formatted(.iso8601)
}
