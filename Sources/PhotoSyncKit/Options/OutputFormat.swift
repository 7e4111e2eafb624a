import ArgumentParser

/// Output of commands that print rows: `list`, `photographers`.
enum TabularFormat: String, CaseIterable, ExpressibleByArgument {
    case table, json, jsonl, csv
}

/// Output of commands that print one report: `fetch`, `status`.
enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}

extension MergePolicyChoice: ExpressibleByArgument {}
extension ListSort: ExpressibleByArgument {}
extension PhotographerSort: ExpressibleByArgument {}
