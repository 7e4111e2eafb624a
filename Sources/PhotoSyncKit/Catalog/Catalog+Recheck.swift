import Foundation
import GraphStore
import PhotoFeed

/// What `recheck` did, the keys of its summary (and of a fetch's `recheck`).
public struct RecheckSummary: Sendable, Equatable, Encodable {
    public var rechecked = 0
    public var updated = 0
    public var unchanged = 0
    public var gone = 0
    public var returned = 0
    /// Photos chosen but not re-checked: the API budget ran out first.
    public var left = 0
}

/// Why a photo is gone upstream: getInfo's code 1 (deleted) or 2 (permission denied).
enum GoneReason: String {
    case deleted, `private`
}

/// `photosync recheck`: the photos checked longest ago asked about again, one getInfo each.
extension Catalog {
    /// The ids of the `limit` photos checked longest ago (never checked first), checked before
    /// `olderThan` (if given), of `photographer` only (if given).
    func recheckCandidates(limit: Int, olderThan: Date?, photographer: String?) throws -> [String] {
        try withContext { context in
            var predicate: FetchPredicate<Photo>? = olderThan.map { date in \.$checked == nil || \.$checked < date }
            if let photographer {
                let theirs = FetchPredicate<Photo>.whose(\.$whoTook, \.$name == photographer)
                predicate = predicate.map { $0 && theirs } ?? theirs
            }
            let request = FetchRequest<Photo>(predicate: predicate, sortBy: [.ascending(\.$checked), .ascending(\.$unique, .numericText)], limit: limit)
            return try context.fetchColumns(request, [\.$unique]).values(\.$unique)
        }
    }

    /// Applies one photo's answer under `policy`, by the author `recheck`; never deletes: a photo
    /// gone upstream is marked gone. A photo deleted from the catalog meanwhile is left alone.
    func applyRecheck(_ id: String, _ answer: PhotoInfoAnswer, policy: MergePolicy, into summary: inout RecheckSummary) throws {
        let wasGone = try goneState(of: id)
        guard let wasGone else { return }
        summary.rechecked += 1
        switch answer {
        case .gone(let reason):
            try mark(id) { photo in
                guard photo.gone == nil else { return }
                (photo.gone, photo.goneReason) = (Date(), reason.rawValue)
                summary.gone += 1
            }
            if wasGone { summary.unchanged += 1 }
        case .found(let item):
            let records = RecheckRecords(item)
            let result = try withCatalogErrors {
                try container.importing(mergePolicy: policy) { session in
                    session.transactionAuthor = Self.recheckAuthor
                    return try session.save(preparing: { context in
                        try context.count(FetchRequest<Photo>(predicate: \.$unique == id, limit: 1)) > 0 ? records.all : []
                    })
                }
            }
            let changed = result.counts(Photo.self).updated > 0
            if wasGone { summary.returned += 1 } else if changed { summary.updated += 1 } else { summary.unchanged += 1 }
            try mark(id) { _ in }
        }
    }

    static let recheckAuthor = "recheck"

    /// Deletes every photo marked gone, as `delete` does photos by id (remembered unless
    /// `remembering` is false; tombstones in the history).
    func deleteGone(remembering: Bool, dryRun: Bool) throws -> DeletionReport {
        try withContext(mergePolicy: .objectTrump, author: "delete") { context in
            let photos = try context.fetch(FetchRequest<Photo>(predicate: \.$gone != nil).prefetching(\.$whoTook))
            if remembering { Self.exclude(photos.map(\.unique), photographer: nil, in: context) }
            return try Self.delete(photos, in: context, dryRun: dryRun)
        }
    }

    /// Whether the photo is marked gone; nil when it is not in the catalog.
    private func goneState(of id: String) throws -> Bool? {
        try withContext { context in
            try context.fetch(FetchRequest<Photo>(predicate: \.$unique == id, limit: 1)).first.map { $0.gone != nil }
        }
    }

    /// Records the check's time, with what `change` does, in one save.
    private func mark(_ id: String, _ change: (Photo) -> Void) throws {
        try withContext(mergePolicy: .objectTrump, author: Self.recheckAuthor) { context in
            guard let photo = try context.fetch(FetchRequest<Photo>(predicate: \.$unique == id, limit: 1)).first else { return }
            change(photo)
            photo.checked = Date()
            try context.save()
        }
    }

    private func withCatalogErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GraphStoreError {
            throw PhotoSyncError.from(error, path: path)
        }
    }
}
