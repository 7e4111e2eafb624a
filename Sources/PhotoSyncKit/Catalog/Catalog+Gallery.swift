import Foundation
import GraphStore

extension Catalog {
    /// The gallery's order: newest first, photos without an upload time last (GraphStore puts
    /// nulls last in a descending sort on both backends), ties by id.
    static let galleryOrder: [FetchSort<Photo>] = [.descending(\.$uploaded), .descending(\.$unique)]

    /// Up to `limit` of `query`'s photos (its filters; its sort and window are ignored) in the
    /// gallery's order, starting after `cursor`.
    public func galleryPage(_ query: ListQuery, after cursor: GalleryCursor?, limit: Int) throws -> [PhotoListing] {
        let filters = [predicate(for: query), cursor.map(Self.after)].compactMap { $0 }
        let predicate = filters.isEmpty ? nil : filters.dropFirst().reduce(filters[0]) { $0 && $1 }
        return try withContext { context in
            try context.readingOneSnapshot {
                let predicate = try narrowed(predicate, query, context)
                let request = FetchRequest<Photo>(predicate: predicate, sortBy: Self.galleryOrder, limit: limit)
                let rows = try context.fetchColumns(request, [\.$unique, \.$title, \.$subtitle, \.$imageURL, \.$uploaded, \.$whoTook])
                let owners = try rows.destinations(\.$whoTook)
                var names: [ObjectID: String] = [:]
                for owner in Set(owners.compactMap { $0 }) {
                    names[owner] = try context.existingObject(with: owner, as: Photographer.self).name
                }
                let (ids, titles, subtitles) = (try rows.values(\.$unique), try rows.values(\.$title), try rows.values(\.$subtitle))
                let (urls, uploaded) = (try rows.values(\.$imageURL), try rows.values(\.$uploaded))
                return ids.indices.map { row in
                    PhotoListing(id: ids[row], title: titles[row], subtitle: subtitles[row],
                                 photographer: owners[row].flatMap { names[$0] } ?? "", imageURL: urls[row],
                                 uploaded: uploaded[row], source: "")
                }
            }
        }
    }

    /// The photos after `cursor` in the gallery's order.
    private static func after(_ cursor: GalleryCursor) -> FetchPredicate<Photo> {
        let sameTimeLaterID: FetchPredicate<Photo> = \.$unique < cursor.id
        guard let time = cursor.uploaded else { return \.$uploaded == nil && sameTimeLaterID }
        return \.$uploaded < time || (\.$uploaded == Date?.some(time) && sameTimeLaterID) || \.$uploaded == nil
    }
}
