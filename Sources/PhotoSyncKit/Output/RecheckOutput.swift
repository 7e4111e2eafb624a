/// The summary `recheck` prints (and a fetch's `recheck` object).
enum RecheckOutput {
    static func oneLine(_ summary: RecheckSummary) -> String {
        counts(summary).map { "\($0) \($1)" }.joined(separator: ", ")
    }

    static func render(_ summary: RecheckSummary, as format: ReportFormat) throws -> String {
        switch format {
        case .json: return try JSONOutput.render(summary)
        case .text: return counts(summary).map { "\($0):\(String(repeating: " ", count: 11 - $0.count))\($1)\n" }.joined()
        }
    }

    private static func counts(_ summary: RecheckSummary) -> [(String, Int)] {
        [("rechecked", summary.rechecked), ("updated", summary.updated), ("unchanged", summary.unchanged), ("gone", summary.gone),
         ("returned", summary.returned), ("left", summary.left)]
    }
}
