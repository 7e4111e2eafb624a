@testable import PhotoSyncKit

/// One fetch of a model sequence: the pages the feed serves, and how the fetch is run.
struct ModelFetch: Sendable, Equatable {
    var pages: [[ModelItem]]
    /// `max_pages`: pages past it are reported (`more_pages`) but not fetched.
    var limit: Int
    var policy: MergePolicyChoice
    var dryRun: Bool
    /// `--full`: walk to the limit even after a completed fetch (no stop at a page of known photos).
    var full = false
    /// The page (1-based) the server answers with a 404 when asked: the walk fails there, the
    /// pages before it saved, and the run is recorded failed (so the next fetch walks to its limit).
    var failAt: Int? = nil
}

/// One command of a model sequence.
enum ModelStep: Sendable, Equatable, CustomStringConvertible {
    case fetch(ModelFetch)
    case deletePhotos([String], remembering: Bool, dryRun: Bool)
    case deletePhotographer(String, remembering: Bool, dryRun: Bool)
    case restorePhotos([String])
    case restorePhotographer(String)

    var isFetch: Bool { if case .fetch = self { true } else { false } }

    var description: String {
        switch self {
        case .fetch(let fetch):
            let pages = fetch.pages.enumerated().map { "    page \($0.offset + 1): \($0.element.map(\.description).joined(separator: ", "))" }
            return "fetch \(fetch.policy.rawValue)\(fetch.dryRun ? " --dry-run" : "")\(fetch.full ? " --full" : "") (max_pages \(fetch.limit))"
                + (fetch.failAt.map { ", page \($0) fails" } ?? "") + "\n"
                + pages.joined(separator: "\n")
        case .deletePhotos(let ids, let remembering, let dryRun):
            return "delete \(ids.joined(separator: " "))\(remembering ? "" : " --forget-only")\(dryRun ? " --dry-run" : "")"
        case .deletePhotographer(let name, let remembering, let dryRun):
            return "delete --photographer \(name)\(remembering ? "" : " --forget-only")\(dryRun ? " --dry-run" : "")"
        case .restorePhotos(let ids):
            return "restore \(ids.joined(separator: " "))"
        case .restorePhotographer(let name):
            return "restore --photographer \(name)"
        }
    }
}
