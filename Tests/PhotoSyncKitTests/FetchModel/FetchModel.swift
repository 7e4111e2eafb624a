@testable import PhotoSyncKit

/// The catalog as plain dictionaries, and the rules of fetch, delete and restore written again
/// from the READMEs, independently of the importer: what the model test checks the real catalog
/// against after every step.
struct FetchModel: Equatable {
    /// Photos by id.
    var photos: [String: ModelPhoto] = [:]
    /// Photographers: name -> owner id (the feed's NSID).
    var owners: [String: String] = [:]
    /// Photo ids deletes excluded -> the photographer whose delete excluded them (nil for a delete by id).
    var excludedIDs: [String: String?] = [:]
    /// Photographers `delete --photographer` excluded, with their owner id then.
    var excludedNames: [String: String] = [:]
    /// Whether a real fetch of the feed succeeded before (the reference for the gap warning).
    var hadSuccessfulFetch = false
    /// Whether the last real fetch (dry runs record nothing) succeeded: the next one, without
    /// `--full`, is incremental and stops after a page of photos all known.
    var lastRunCompleted = false
    /// The unfinished part of a walk the page limit cut (nil: the feed is complete).
    var backfill: ModelBackfill?
    /// The newest upload any completed fetch received.
    var mark: Int?

    /// What a step returns, as the model predicts it and as the catalog answered.
    enum Outcome: Equatable, CustomStringConvertible {
        case fetched(FetchSummary)
        /// A merge conflict under `error`: the conflicting keys of the failing page ("photo 12",
        /// "photographer Ana"), and how many there are.
        case conflict(Set<String>, total: Int)
        /// The walk failed (a page the server refused), pages before it kept.
        case failed
        case deleted(DeletionReport)
        case restored(RestoreReport)
        case notFound

        var description: String {
            switch self {
            case .fetched(let summary): "fetched \(summary.line)"
            case .conflict(let keys, let total): "conflict: \(keys.sorted().joined(separator: ", ")) (\(total) in total)"
            case .failed: "failed (network)"
            case .deleted(let report): "deleted \(report.photoIDs), photographers removed \(report.photographersRemoved)"
            case .restored(let report): "restored \(report.photoIDs) photographer \(report.photographer ?? "-")"
            case .notFound: "not found"
            }
        }
    }

    /// The outcome of `step`, applying it to the model.
    mutating func apply(_ step: ModelStep) -> (outcome: Outcome, run: FetchSummary?) {
        switch step {
        case .fetch(let fetch): fetched(fetch)
        case .deletePhotos(let ids, let remembering, let dryRun): (deletePhotos(ids, remembering: remembering, dryRun: dryRun), nil)
        case .deletePhotographer(let name, let remembering, let dryRun):
            (deletePhotographer(name, remembering: remembering, dryRun: dryRun), nil)
        case .restorePhotos(let ids): (restorePhotos(ids), nil)
        case .restorePhotographer(let name): (restorePhotographer(name), nil)
        }
    }

    /// Whether a delete excluded `item` from fetches: its id, or its photographer.
    func excludes(_ item: ModelItem) -> Bool {
        excludedIDs[item.id] != nil || excludedNames[item.ownerName] != nil || (!item.ownerID.isEmpty && excludedNames.values.contains(item.ownerID))
    }
}

extension FetchSummary {
    /// The counts on one line, for failure messages.
    var line: String {
        "pages \(pages) received \(received) inserted \(inserted) updated \(updated) unchanged \(unchanged) repeated \(repeated) "
            + "skipped \(skipped) excluded \(excluded) photographers +\(photographersInserted) -\(photographersRemoved) ~\(photographersRenamed) "
            + "more_pages \(morePages) skipped_known \(pagesSkippedKnown) gap \(gap) backfill_pages \(backfillPages)"
    }
}
