import Foundation

/// `--photographer NAME` as `list`, `delete` and `restore` read it (see `PhotographerNameMatch`).
///
/// Only called once the exact name found nothing, so a correct name costs no extra query.
enum PhotographerArgument {
    /// For `list`: the one case-folded match, said on stderr.
    /// - Throws: `.notFound` (1) with the closest names, or saying a delete excluded that photographer.
    static func resolveForListing(_ typed: String, in catalog: Catalog) throws -> String {
        switch PhotographerNameMatch.resolve(typed, among: try catalog.photographerNames()) {
        case .exact(let name):
            return name
        case .caseFolded(let name):
            Console.notice("no photographer named '\(typed)'; using '\(name)'")
            return name
        case .unknown(let suggestions):
            if let excluded = try catalog.exclusion(ofPhotographer: typed) { throw excludedError(typed, on: excluded) }
            throw PhotoSyncError.notFound(PhotographerNameMatch.unknownMessage(typed, suggestions: suggestions))
        }
    }

    /// For `delete`: a destructive command never guesses, so even one case-folded match is only suggested.
    static func refusalForDelete(_ typed: String, in catalog: Catalog) throws -> PhotoSyncError {
        switch PhotographerNameMatch.resolve(typed, among: try catalog.photographerNames()) {
        case .exact:
            return .notFound("no photographer named '\(typed)'; nothing was deleted")
        case .caseFolded(let name):
            return .notFound("no photographer named '\(typed)'; did you mean '\(name)'? A delete needs the exact name; nothing was deleted")
        case .unknown(let suggestions):
            if let excluded = try catalog.exclusion(ofPhotographer: typed) {
                return .notFound("photographer '\(typed)' was already deleted on \(timestamp(excluded)); nothing was deleted")
            }
            return .notFound(PhotographerNameMatch.unknownMessage(typed, suggestions: suggestions) + "; nothing was deleted")
        }
    }

    /// For `restore`: the excluded photographer named exactly, or the one case-folded match (said on stderr).
    static func resolveForRestore(_ typed: String, in catalog: Catalog) throws -> String {
        let excluded = try catalog.exclusions().filter { $0.kind == .photographer }.map(\.value)
        switch PhotographerNameMatch.resolve(typed, among: excluded) {
        case .exact(let name):
            return name
        case .caseFolded(let name):
            Console.notice("no excluded photographer named '\(typed)'; using '\(name)'")
            return name
        case .unknown(let suggestions):
            let message = PhotographerNameMatch.unknownMessage(typed, suggestions: suggestions, what: "excluded photographer")
            throw PhotoSyncError.notFound(message + "; nothing was restored (see 'photosync excluded')")
        }
    }

    /// `list --photographer` of someone a delete removed: say so, and how to undo it.
    static func excludedError(_ name: String, on date: Date) -> PhotoSyncError {
        .notFound("no photographer named '\(name)': excluded by a delete on \(timestamp(date)) "
            + "('photosync restore --photographer \(ExclusionListing.quoted(name))' lets the next fetch bring the photos back)")
    }
}
