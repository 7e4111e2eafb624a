import Foundation
import GraphStore
import PhotoFeed

extension Catalog {
    /// Which of `page`'s photo ids, owner names and owner ids a delete excluded, as `context` reads
    /// them (inside a save's transaction): three batched reads, none while nothing is excluded.
    static func exclusions(for page: FeedPage, in context: ObjectContext) throws -> PageExclusions {
        guard !page.photos.isEmpty else { return PageExclusions() }
        return try context.readingOneSnapshot {
                guard try context.count(FetchRequest<ExcludedPhoto>(limit: 1)) + context.count(FetchRequest<ExcludedPhotographer>(limit: 1)) > 0
                else { return PageExclusions() }
                let ids = try context.fetchColumns(
                    FetchRequest<ExcludedPhoto>(predicate: .isIn(\.$unique, page.photos.map(\.id))), [\.$unique]).values(\.$unique)
                let names = try context.fetchColumns(
                    FetchRequest<ExcludedPhotographer>(predicate: .isIn(\.$name, Array(Set(page.photos.map(\.ownerName))))), [\.$name])
                    .values(\.$name)
                let owners = try context.fetchColumns(
                    FetchRequest<ExcludedPhotographer>(predicate: .isIn(\.$ownerID, Array(Set(page.photos.map(\.ownerID))))), [\.$ownerID])
                    .values(\.$ownerID)
                return PageExclusions(ids: Set(ids), names: Set(names), ownerIDs: Set(owners.compactMap { $0 }))
        }
    }

    /// Forgets excluded photo ids, all or nothing.
    /// - Throws: `PhotoSyncError.notFound` listing ids that are not excluded (nothing changed).
    public func restore(photoIDs: [String]) throws -> RestoreReport {
        try withContext(author: "restore") { context in
            let wanted = Array(Set(photoIDs))
            let excluded = try context.fetch(FetchRequest<ExcludedPhoto>(predicate: .isIn(\.$unique, wanted)))
            let missing = Set(wanted).subtracting(excluded.map(\.unique)).sorted()
            guard missing.isEmpty else {
                throw PhotoSyncError.notFound("not excluded: photo \(missing.joined(separator: ", ")); nothing was restored")
            }
            excluded.forEach(context.delete)
            try context.save()
            return RestoreReport(photoIDs: excluded.map(\.unique).sorted(), photographer: nil)
        }
    }

    /// Undoes `delete --photographer NAME`: the photographer and the photo ids that delete excluded.
    /// - Throws: `PhotoSyncError.notFound` when no delete excluded that photographer.
    public func restore(photographer name: String) throws -> RestoreReport {
        try withContext(author: "restore") { context in
            guard let excluded = try context.fetch(FetchRequest<ExcludedPhotographer>(predicate: \.$name == name)).first else {
                throw PhotoSyncError.notFound("no excluded photographer named \(name); nothing was restored")
            }
            let photos = try context.fetch(FetchRequest<ExcludedPhoto>(predicate: \.$photographer == name))
            context.delete(excluded)
            photos.forEach(context.delete)
            try context.save()
            return RestoreReport(photoIDs: photos.map(\.unique).sorted(), photographer: name)
        }
    }

    /// Remembers what a delete removed, in the delete's own transaction.
    static func exclude(_ photoIDs: [String], photographer: Photographer?, in context: ObjectContext) {
        let now = Date()
        for id in photoIDs {
            let excluded = context.insert(ExcludedPhoto.self)
            (excluded.unique, excluded.photographer, excluded.excluded) = (id, photographer?.name, now)
        }
        if let photographer {
            let excluded = context.insert(ExcludedPhotographer.self)
            (excluded.name, excluded.excluded) = (photographer.name, now)
            excluded.ownerID = photographer.ownerID.isEmpty ? nil : photographer.ownerID
        }
    }
}

/// The photo ids, owner names and owner ids of one page that deletes excluded.
struct PageExclusions: Sendable, Equatable {
    var ids: Set<String> = []
    var names: Set<String> = []
    var ownerIDs: Set<String> = []

    func excludes(_ photo: FeedPhoto) -> Bool {
        ids.contains(photo.id) || names.contains(photo.ownerName) || ownerIDs.contains(photo.ownerID)
    }
}

/// What `restore` forgot.
public struct RestoreReport: Sendable, Equatable {
    public var photoIDs: [String]
    public var photographer: String?
}
