/// What `delete` reports: each photo, then each photographer the delete rule removed.
enum DeletionOutput {
    /// `photographer` is the one deleted on request, which needs no "(no photos left)" explanation.
    static func render(_ report: DeletionReport, photographer: String?) -> String {
        let photos = report.photoIDs.map { "deleted photo \($0)\n" }
        let photographers = report.photographersRemoved.map { name in
            name == photographer ? "removed photographer \(name)\n" : "removed photographer \(name) (no photos left)\n"
        }
        return (photos + photographers).joined()
    }
}
