import Foundation
@testable import PhotoSyncKit

/// The comparisons after each step: outcome, catalog against the model, run records, and the
/// summary against what a re-read shows (the last without the model, so a rule the model and the
/// importer got wrong alike still shows).
extension ModelRunner {
    func compare(_ expected: FetchModel.Outcome, _ actual: Result<FetchModel.Outcome, any Error>) -> [String] {
        if case .success(.conflict(let listed, let total)) = actual, case .conflict(let keys, _) = expected, listed.isSubset(of: keys) {
            // Only the first 10 conflicts are listed: they must be among those expected.
            if total > 10 && listed.count == 10 { return compare(expected, .success(.conflict(keys, total: total))) }
        }
        switch actual {
        case .success(let outcome) where outcome == expected: return []
        case .success(let outcome): return ["expected \(expected)\n  got      \(outcome)"]
        case .failure(let error): return ["expected \(expected)\n  got error \(error)"]
        }
    }

    static func difference(_ model: FetchModel, _ stored: FetchModel) -> [String] {
        var problems: [String] = []
        for id in Set(model.photos.keys).union(stored.photos.keys).sorted() where model.photos[id] != stored.photos[id] {
            problems.append("photo \(id): model \(describe(model.photos[id])), catalog \(describe(stored.photos[id]))")
        }
        for name in Set(model.owners.keys).union(stored.owners.keys).sorted() where model.owners[name] != stored.owners[name] {
            problems.append("photographer \(name): model \(model.owners[name] ?? "absent"), catalog \(stored.owners[name] ?? "absent")")
        }
        for id in Set(model.excludedIDs.keys).union(stored.excludedIDs.keys).sorted() where model.excludedIDs[id] != stored.excludedIDs[id] {
            problems.append("excluded id \(id): model \(excluder(model.excludedIDs[id])), catalog \(excluder(stored.excludedIDs[id]))")
        }
        if model.excludedNames != stored.excludedNames {
            problems.append("excluded photographers: model \(model.excludedNames.sorted { $0.key < $1.key }), catalog \(stored.excludedNames.sorted { $0.key < $1.key })")
        }
        return problems
    }

    /// A real fetch adds one run whose record holds the counts of the pages it saved; nothing
    /// else touches the runs.
    static func checkRuns(_ step: ModelStep, _ expected: (outcome: FetchModel.Outcome, run: FetchSummary?),
                          before: CatalogReading, after: CatalogReading) -> [String] {
        guard let summary = expected.run else {
            return after.runs == before.runs ? [] : ["the runs changed: \(after.runs.count) instead of \(before.runs.count)"]
        }
        guard after.runs.count == before.runs.count + 1, let run = after.runs.first else {
            return ["\(after.runs.count) runs recorded after \(before.runs.count) and a fetch"]
        }
        let outcome: FetchRunRecord.Outcome = if case .fetched = expected.outcome { .succeeded } else { .failed }
        var problems: [String] = []
        if run.outcome != outcome || (run.error != nil) != (outcome == .failed) {
            problems.append("run recorded \(run.outcome) (\(run.error ?? "no error")), expected \(outcome)")
        }
        if run.summary != summary { problems.append("run recorded \(run.summary.line)\n  expected      \(summary.line)") }
        return problems
    }

    /// Whether a photo is the same, or differs only by its photographer's account having been
    /// renamed (the same owner id under a new name, the old name no longer that account's): a
    /// rename updates no photo.
    static func sameBesidesARename(_ old: FetchModel, _ now: ModelPhoto, _ was: ModelPhoto, _ new: FetchModel) -> Bool {
        var renamed = was
        renamed.photographer = now.photographer
        guard renamed == now else { return false }
        return was.photographer == now.photographer
            || (old.owners[was.photographer] != nil && old.owners[was.photographer] == new.owners[now.photographer]
                && new.owners[was.photographer] != old.owners[was.photographer])
    }

    /// What a re-read shows against the step's own report.
    static func checkCounts(_ step: ModelStep, _ actual: Result<FetchModel.Outcome, any Error>,
                            before: CatalogReading, after: CatalogReading) -> [String] {
        let (old, new) = (before.model, after.model)
        if step.isDryRun || (try? actual.get()) == .notFound {
            let unchanged = old.photos == new.photos && old.owners == new.owners && old.excludedIDs == new.excludedIDs
                && old.excludedNames == new.excludedNames
            return unchanged ? [] : ["a dry run or a refused command changed the catalog"]
        }
        var problems: [String] = []
        switch try? actual.get() {
        case .fetched(let s):
            if s.received != s.inserted + s.updated + s.unchanged + s.repeated + s.skipped + s.excluded {
                problems.append("received \(s.received) is not the sum of the other counts: \(s.line)")
            }
            if new.photos.count != old.photos.count + s.inserted { problems.append("\(s.inserted) inserted, but \(old.photos.count) photos became \(new.photos.count)") }
            if new.owners.count != old.owners.count + s.photographersInserted - s.photographersRemoved {
                problems.append("photographers +\(s.photographersInserted) -\(s.photographersRemoved), but \(old.owners.count) became \(new.owners.count)")
            }
            let differing = old.photos.keys.filter { id in new.photos[id].map { !Self.sameBesidesARename(old, $0, old.photos[id]!, new) } ?? false }.count
            if differing > s.updated { problems.append("\(differing) stored photos changed, but \(s.updated) updated") }
        case .deleted(let report):
            if new.photos.count != old.photos.count - report.photoIDs.count || new.owners.count != old.owners.count - report.photographersRemoved.count {
                problems.append("a delete of \(report.photoIDs.count) photos and \(report.photographersRemoved.count) photographers left \(new.photos.count)/\(new.owners.count) of \(old.photos.count)/\(old.owners.count)")
            }
        default: break
        }
        return problems
    }

    /// Who excluded an id: "absent" (not excluded), "a delete by id", or "delete --photographer NAME".
    private static func excluder(_ entry: String??) -> String {
        guard let entry else { return "absent" }
        return entry.map { "delete --photographer \($0)" } ?? "a delete by id"
    }

    private static func describe(_ photo: ModelPhoto?) -> String {
        guard let photo else { return "absent" }
        return #"\#(photo.photographer) "\#(photo.title)" "\#(photo.subtitle)" \#(photo.uploaded.map { String(Int($0.timeIntervalSince1970)) } ?? "nil") \#(photo.imageURL.suffix(6))"#
    }
}

extension ModelStep {
    var isDryRun: Bool {
        switch self {
        case .fetch(let fetch): fetch.dryRun
        case .deletePhotos(_, _, let dryRun), .deletePhotographer(_, _, let dryRun): dryRun
        case .restorePhotos, .restorePhotographer: false
        }
    }
}
