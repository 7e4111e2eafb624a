/// What `verify` prints: every problem on its own line, or the JSON report.
enum FolderCheckOutput {
    static func render(_ check: FolderCheck, as format: ReportFormat) throws -> String {
        switch format {
        case .json:
            return try JSONOutput.render(check)
        case .text:
            var lines = check.missing.map { "missing: photo \(TerminalText.escaped($0))" }
            lines += check.corrupt.map { "corrupt: photo \(TerminalText.escaped($0)) (size or sha256 differs)" }
            lines += check.orphans.map { "orphan: \(TerminalText.escaped($0))" }
            lines.append("checked \(check.checked) file(s): \(check.ok) ok, \(check.missing.count) missing, "
                + "\(check.corrupt.count) corrupt, \(check.orphans.count) orphan(s)")
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
