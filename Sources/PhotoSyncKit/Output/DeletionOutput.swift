/// What `delete` reports: each photo, then each photographer the delete rule removed (escaped: names come from the feed).
enum DeletionOutput {
    /// `photographer` is the one deleted on request, which needs no "(no photos left)" explanation.
    static func render(_ report: DeletionReport, photographer: String?, dryRun: Bool = false) -> String {
        let (deleted, removed) = dryRun ? ("would delete", "would remove") : ("deleted", "removed")
        let photos = report.photoIDs.map { "\(deleted) photo \(TerminalText.escaped($0))\n" }
        let photographers = report.photographersRemoved.map { name in
            let shown = TerminalText.escaped(name)
            return name == photographer ? "\(removed) photographer \(shown)\n" : "\(removed) photographer \(shown) (no photos left)\n"
        }
        return (photos + photographers).joined()
    }

    /// The printed lines as one log line: `deleted photo 1; removed photographer Ana Lima (no photos left)`.
    static func logLine(_ text: String) -> String {
        text.split(separator: "\n").joined(separator: "; ")
    }

    /// What `restore` prints: the photographer, then each photo id no longer excluded.
    static func render(_ report: RestoreReport) -> String {
        let photographer = report.photographer.map { ["restored photographer \(TerminalText.escaped($0))\n"] } ?? []
        let photos = report.photoIDs.map { "restored photo \(TerminalText.escaped($0))\n" }
        // Restoring fetches nothing: until the next fetch, `show` and `list` do not find the photos.
        let one = report.photoIDs.count == 1
        let when = report.photoIDs.isEmpty ? [] : ["\(one ? "it returns" : "they return") with the next fetch (if the feed still has \(one ? "it" : "them"))\n"]
        return (photographer + photos + when).joined()
    }
}
