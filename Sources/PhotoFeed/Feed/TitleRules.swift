/// photosync's title rules (from the CS193P Photomania lineage): a blank title borrows
/// the description, so list output never shows an empty line; "Unknown" is the last resort.
enum TitleRules {
    static let unknownTitle = "Unknown"

    /// `(title, subtitle)` for a raw title and description; both may be nil (missing).
    static func apply(title rawTitle: String?, description rawDescription: String?) -> (title: String, subtitle: String) {
        let title = rawTitle?.trimmed ?? ""
        let description = rawDescription?.trimmed ?? ""
        if !title.isEmpty { return (title, description) }
        if !description.isEmpty { return (description, "") }
        return (unknownTitle, "")
    }
}
