import Foundation
import GraphStore
import PhotoFeed

extension Catalog {
    /// Photos matching `query`, in its order: filters, order and window all in SQL (GraphStore's
    /// case-insensitive `contains` folds case fully, `ß` as `ss`, and keeps accents).
    public func list(_ query: ListQuery) throws -> [PhotoListing] {
        try list(query, predicate: predicate(for: query))
    }

    /// Photographers in `sort` order (photos: most first, then by name), at most `limit`.
    public func photographers(sort: PhotographerSort, limit: Int?) throws -> [PhotographerListing] {
        if sort == .name, let limit { return try photographers(first: limit) }
        var all = try photographers()
        if sort == .photos {
            // Stable on the name order `photographers()` returns, so ties stay by name.
            all = all.enumerated().sorted { ($1.element.photos, $0.offset) < ($0.element.photos, $1.offset) }.map(\.element)
        }
        return Array(all.prefix(limit ?? all.count))
    }

    /// One photo with everything stored about it, or nil when the id is not in the catalog.
    public func photo(id: String) throws -> PhotoDetails? {
        try withContext { context in
            guard let photo = try context.fetch(FetchRequest<Photo>(predicate: \.$unique == id, limit: 1)).first else { return nil }
            var listing = PhotoListing(id: photo.unique, title: photo.title, subtitle: photo.subtitle,
                                       photographer: photo.whoTook?.name ?? "", imageURL: photo.imageURL, uploaded: photo.uploaded,
                                       source: photo.source)
            (listing.metadata, listing.ownerID) = (photo.metadata, photo.whoTook?.ownerID ?? "")
            listing.check = PhotoCheck(gone: photo.gone, goneReason: photo.goneReason, checked: photo.checked)
            listing.licenseInfo = try photo.license.flatMap { try Self.licenses(in: context)[$0] }
            return PhotoDetails(listing: listing, ownerID: listing.ownerID)
        }
    }

    func predicate(for query: ListQuery) -> FetchPredicate<Photo>? {
        var parts: [FetchPredicate<Photo>] = []
        if let name = query.photographer { parts.append(.whose(\.$whoTook, \.$name == name)) }
        if let source = query.source { parts.append(\.$source == source) }
        if let license = query.license { parts.append(\.$license == license) }
        for tag in query.tags { parts.append(.any(\.$tags, \Tag.$name == (TagRule.normalized(tag) ?? ""))) }
        if let text = query.search {
            parts.append(.contains(\.$title, text, caseInsensitive: true) || .contains(\.$subtitle, text, caseInsensitive: true))
        }
        // Stored times are whole seconds: a millisecond's margin makes the bounds inclusive.
        if let since = query.since { parts.append(\.$uploaded > since.addingTimeInterval(-0.001)) }
        if let until = query.until { parts.append(\.$uploaded < until.addingTimeInterval(0.001)) }
        if query.gone { parts.append(\.$gone != nil) }
        return parts.isEmpty ? nil : parts.dropFirst().reduce(parts[0]) { $0 && $1 }
    }
}

/// What `show` prints: the listing's fields plus the owner's NSID.
public struct PhotoDetails: Sendable, Equatable {
    public var listing: PhotoListing
    public var ownerID: String

    /// Flickr's page for the photo: `https://www.flickr.com/photos/{owner NSID}/{id}`.
    public var pageURL: String {
        let owner = ownerID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? ownerID
        return "https://www.flickr.com/photos/\(owner)/\(listing.id)"
    }
}

/// Levenshtein distance over characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}
