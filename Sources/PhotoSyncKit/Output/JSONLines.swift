/// `--format jsonl`: one compact JSON object per line, for `jq -c` and line-oriented tools.
enum JSONLines {
    static func render(_ values: [some Encodable]) throws -> String {
        try values.map { try JSONOutput.render($0) }.joined()
    }
}
