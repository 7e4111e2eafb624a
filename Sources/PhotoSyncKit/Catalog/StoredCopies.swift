import GraphStore
import PhotoFeed

/// What the catalog already holds of a feed page, read in two batched queries without building
/// objects: the photos it holds exactly (same values, same photographer) and the photographers
/// whose stored owner id is the one the page gives. The importer leaves those out, so an unchanged
/// photo costs no object, no merge and no write (a re-import of an unchanged feed was 4–5× the
/// SQLite floor, almost all of it that work).
///
/// Leaving them out changes nothing, because of what each merge policy would do with them:
/// - object-trump: a photo identical to its row, or a photographer whose owner id is unchanged,
///   merges to itself;
/// - store-trump: a stored photo keeps its values and its photographer (only an empty one would
///   be filled), and a stored photographer keeps its owner id, whatever the page says;
/// - error: every stored record is a conflict to report, so nothing is left out.
/// A photo id that occurs twice in the page is never left out: the policy decides between its versions.
struct StoredCopies {
    /// For each photo of the page (same order): whether the catalog holds it exactly.
    let isStored: [Bool]
    /// For each of the page's owner names (``PageKeys/names`` order): its stored photographer, if any.
    let photographerRows: [ObjectID?]
    /// For each name: whether its stored photographer has another owner id, which the page
    /// replaces (never under store-trump, where the stored one stays as it is).
    let isStale: [Bool]

    init(of page: FeedPage, keys: PageKeys, policy: MergePolicy, in context: ObjectContext) throws {
        guard policy != .error else {
            isStored = Array(repeating: false, count: page.photos.count)
            (photographerRows, isStale) = (Array(repeating: nil, count: keys.names.count), Array(repeating: false, count: keys.names.count))
            return
        }
        let (photos, people) = try context.readingOneSnapshot {
            (try context.fetchColumns(FetchRequest<Photo>(predicate: .isIn(\.$unique, Array(keys.positions.keys))),
                                      [\.$unique, \.$title, \.$subtitle, \.$imageURL, \.$uploaded, \.$whoTook]),
             try context.fetchColumns(FetchRequest<Photographer>(predicate: .isIn(\.$name, keys.names)), [\.$name, \.$ownerID]))
        }
        let storeWins = policy == .storeTrump
        var owners: [ObjectID: Int] = [:]
        var rows = [ObjectID?](repeating: nil, count: keys.names.count), stale = [Bool](repeating: false, count: keys.names.count)
        for (id, (name, ownerID)) in zip(people.ids, zip(try people.values(\.$name), try people.values(\.$ownerID))) {
            guard let owner = keys.nameIndex[.text(name)] else { continue }
            owners[id] = owner
            rows[owner] = id
            stale[owner] = !storeWins && keys.ownerIDs[owner] != ownerID
        }
        (photographerRows, isStale) = (rows, stale)
        isStored = try Self.compare(page, keys, with: photos, owners: owners, storeWins: storeWins)
    }

    /// For each photo of the page: stored with the same values and photographer (under
    /// store-trump: stored with a photographer).
    private static func compare(
        _ page: FeedPage, _ keys: PageKeys, with photos: FetchedColumns<Photo>, owners: [ObjectID: Int], storeWins: Bool
    ) throws -> [Bool] {
        let (uniques, titles, subtitles, imageURLs, uploaded, whoTook) = (
            try photos.values(\.$unique), try photos.values(\.$title), try photos.values(\.$subtitle),
            try photos.values(\.$imageURL), try photos.values(\.$uploaded), try photos.destinations(\.$whoTook))
        var isStored = [Bool](repeating: false, count: page.photos.count)
        for row in photos.ids.indices {
            guard let index = keys.positions[uniques[row]] else { continue }
            let item = page.photos[index]
            isStored[index] = storeWins
                ? whoTook[row] != nil
                : item.title == titles[row] && item.subtitle == subtitles[row] && item.imageURL == imageURLs[row]
                    && item.uploaded == uploaded[row] && whoTook[row].flatMap { owners[$0] } == keys.owners[index]
        }
        return isStored
    }
}
