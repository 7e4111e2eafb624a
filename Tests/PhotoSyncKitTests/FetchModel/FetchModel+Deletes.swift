@testable import PhotoSyncKit

/// `delete` and `restore` in the model: all or nothing; a delete remembers what it removed unless
/// told to forget, and a photographer left without photos goes with their last one.
extension FetchModel {
    mutating func deletePhotos(_ ids: [String], remembering: Bool, dryRun: Bool) -> Outcome {
        let wanted = Set(ids)
        guard wanted.isSubset(of: photos.keys) else { return .notFound }
        let emptied = Set(wanted.compactMap { photos[$0]?.photographer }).filter { name in
            photos.allSatisfy { $0.value.photographer != name || wanted.contains($0.key) }
        }
        let report = DeletionReport(photoIDs: wanted.sorted(), photographersRemoved: emptied.sorted())
        guard !dryRun else { return .deleted(report) }
        for id in wanted {
            photos[id] = nil
            if remembering { excludedIDs[id] = .some(nil) }
        }
        for name in emptied { owners[name] = nil }
        return .deleted(report)
    }

    mutating func deletePhotographer(_ name: String, remembering: Bool, dryRun: Bool) -> Outcome {
        guard owners[name] != nil else { return .notFound }
        let ids = photos.filter { $0.value.photographer == name }.map(\.key)
        let report = DeletionReport(photoIDs: ids.sorted(), photographersRemoved: [name])
        guard !dryRun else { return .deleted(report) }
        for id in ids {
            photos[id] = nil
            if remembering { excludedIDs[id] = .some(name) }
        }
        if remembering { excludedNames[name] = owners[name] }
        owners[name] = nil
        return .deleted(report)
    }

    mutating func restorePhotos(_ ids: [String]) -> Outcome {
        let wanted = Set(ids)
        guard wanted.isSubset(of: excludedIDs.keys) else { return .notFound }
        for id in wanted { excludedIDs[id] = nil }
        return .restored(RestoreReport(photoIDs: wanted.sorted(), photographer: nil))
    }

    mutating func restorePhotographer(_ name: String) -> Outcome {
        guard excludedNames[name] != nil else { return .notFound }
        let ids = excludedIDs.filter { $0.value == name }.map(\.key)
        for id in ids { excludedIDs[id] = nil }
        excludedNames[name] = nil
        return .restored(RestoreReport(photoIDs: ids.sorted(), photographer: name))
    }
}
