import Foundation
@testable import PhotoSyncKit

/// Where a sequence first parted from the model.
struct ModelFailure: Error, CustomStringConvertible {
    var step: Int
    var message: String
    var description: String { "step \(step + 1): \(message)" }
}

/// Runs a sequence against a fresh catalog file and the model side by side, checking after every
/// step the step's outcome, the whole catalog read back, its invariants and its run records.
/// Every few steps the catalog is opened afresh, and read back through a read-only open.
struct ModelRunner {
    let server: ModelFeedServer
    var reopenEvery = 10
    var readFreshEvery = 5

    func run(_ steps: [ModelStep]) -> ModelFailure? {
        let directory = NSTemporaryDirectory() + "photosync-model-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try run(steps, path: directory + "/catalog.sqlite")
        } catch let failure as ModelFailure {
            return failure
        } catch {
            return ModelFailure(step: -1, message: "setting up: \(error)")
        }
    }

    private func run(_ steps: [ModelStep], path: String) throws -> ModelFailure? {
        var catalog = try Catalog(path: path)
        var model = FetchModel()
        var before = try CatalogReading(catalog, throughCommands: true)
        for (index, step) in steps.enumerated() {
            do {
                if index > 0 && index % reopenEvery == 0 { catalog = try Catalog(path: path) }
                let expected = model.apply(step)
                let actual = perform(step, on: catalog)
                let fresh = index % readFreshEvery == 0
                var after = try CatalogReading(fresh ? Catalog(path: path, forReading: true) : catalog, throughCommands: fresh,
                                               readingRuns: step.isFetch)
                if !fresh && !step.isFetch { after.runs = before.runs }
                let problems = compare(expected.outcome, actual) + after.problems + Self.difference(model, after.model)
                    + Self.checkRuns(step, expected, before: before, after: after)
                    + Self.checkCounts(step, actual, before: before, after: after)
                    + ((model.backfill != nil) == after.catchingUp ? [] : ["catching up: model \(model.backfill != nil), catalog \(after.catchingUp)"])
                if !problems.isEmpty { return ModelFailure(step: index, message: problems.joined(separator: "\n  ")) }
                before = after
            } catch {
                return ModelFailure(step: index, message: "reading the catalog back: \(error)")
            }
        }
        return nil
    }

    /// Runs `step` through the catalog's public API; any error but the expected ones is an outcome
    /// the model never predicts.
    private func perform(_ step: ModelStep, on catalog: Catalog) -> Result<FetchModel.Outcome, any Error> {
        Result {
            do {
                switch step {
                case .fetch(let fetch):
                    server.serve(fetch)
                    return .fetched(try catalog.fetch(settings(fetch), interruption: InterruptionWatch(), progress: { _ in }).counts)
                case .deletePhotos(let ids, let remembering, let dryRun):
                    return .deleted(try catalog.delete(photoIDs: ids, remembering: remembering, dryRun: dryRun))
                case .deletePhotographer(let name, let remembering, let dryRun):
                    return .deleted(try catalog.delete(photographer: name, remembering: remembering, dryRun: dryRun))
                case .restorePhotos(let ids): return .restored(try catalog.restore(photoIDs: ids))
                case .restorePhotographer(let name): return .restored(try catalog.restore(photographer: name))
                }
            } catch PhotoSyncError.notFound {
                return .notFound
            } catch PhotoSyncError.conflict(let message) {
                return Self.conflict(message)
            } catch PhotoSyncError.network {
                return .failed
            }
        }
    }

    private func settings(_ fetch: ModelFetch) -> FetchSettings {
        var settings = FetchSettings(
            endpoint: server.endpoint, apiKey: "model-key", pages: nil, maxPages: fetch.limit, perPage: 100,
            mergePolicy: fetch.policy, timeout: 120, retries: 2, dryRun: fetch.dryRun, waitForLock: false)
        settings.full = fetch.full
        return settings
    }

    /// The keys and total of "merge conflict under the error policy: photo 1, photographer Ana
    /// (2 in total); nothing from this page was saved" (at most 10 keys are listed).
    private static func conflict(_ message: String) -> FetchModel.Outcome {
        guard let colon = message.range(of: ": "), let open = message.range(of: " (", options: .backwards),
              let end = message.range(of: " in total)", options: .backwards), let total = Int(message[open.upperBound..<end.lowerBound])
        else { return .conflict([message], total: -1) }
        return .conflict(Set(message[colon.upperBound..<open.lowerBound].components(separatedBy: ", ")), total: total)
    }
}

extension FetchSummary {
    /// The counts the model predicts: a dry run's list of changes is checked by ChangesCommandTests.
    var counts: FetchSummary {
        var counts = self
        (counts.changes, counts.changesTotal) = (nil, nil)
        return counts
    }
}
