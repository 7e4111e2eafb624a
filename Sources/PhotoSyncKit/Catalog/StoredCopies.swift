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
    /// For each name: its stored photographer's owner id, when stored and read (not under store-trump).
    let storedOwnerIDs: [String?]

    /// With `readingPhotos` false, only the photographers are read and no photo counts as stored
    /// (for a page expected to be all new: the save then checks its ids itself). Names in `known`
    /// are not read again.
    init(of page: FeedPage, keys: PageKeys, policy: MergePolicy, readingPhotos: Bool = true,
         known: KnownPhotographers? = nil, in context: ObjectContext) throws {
        let count = keys.names.count
        var rows = [ObjectID?](repeating: nil, count: count), stale = [Bool](repeating: false, count: count)
        var storedOwnerIDs = [String?](repeating: nil, count: count)
        guard policy != .error else {
            isStored = Array(repeating: false, count: page.photos.count)
            (photographerRows, isStale, self.storedOwnerIDs) = (rows, stale, storedOwnerIDs)
            return
        }
        // Under store-trump a stored photo is left out whatever its values: only its photographer is read.
        let storeWins = policy == .storeTrump
        var owners: [ObjectID: Int] = [:]
        var unknown: [String] = []
        for (owner, name) in keys.names.enumerated() {
            guard let row = known?.row(named: name), storeWins || row.ownerID != nil else {
                unknown.append(name)
                continue
            }
            (rows[owner], storedOwnerIDs[owner]) = (row.id, row.ownerID)
            owners[row.id] = owner
            stale[owner] = !storeWins && row.ownerID != keys.ownerIDs[owner]
        }
        let (photos, people) = try context.readingOneSnapshot {
            (readingPhotos
                ? try context.fetchColumns(FetchRequest<Photo>(predicate: .isIn(\.$unique, Array(keys.positions.keys))),
                                           storeWins ? [\.$unique, \.$whoTook] : [\.$unique, \.$title, \.$subtitle, \.$imageURL, \.$uploaded, \.$whoTook])
                : nil,
             unknown.isEmpty
                ? nil
                : try context.fetchColumns(FetchRequest<Photographer>(predicate: .isIn(\.$name, unknown)),
                                           storeWins ? [\.$name] : [\.$name, \.$ownerID]))
        }
        if let people {
            let ownerIDs = storeWins ? nil : try people.values(\.$ownerID)
            for (row, (id, name)) in zip(people.ids, try people.values(\.$name)).enumerated() {
                guard let owner = keys.nameIndex[.text(name)] else { continue }
                owners[id] = owner
                rows[owner] = id
                storedOwnerIDs[owner] = ownerIDs?[row]
                stale[owner] = ownerIDs.map { keys.ownerIDs[owner] != $0[row] } ?? false
            }
        }
        (photographerRows, isStale, self.storedOwnerIDs) = (rows, stale, storedOwnerIDs)
        guard let photos else {
            isStored = Array(repeating: false, count: page.photos.count)
            return
        }
        isStored = try storeWins ? Self.withPhotographer(page, keys, photos) : Self.identical(page, keys, photos, owners: owners)
    }

    /// For each photo of the page: stored with a photographer (store-trump leaves those out).
    private static func withPhotographer(_ page: FeedPage, _ keys: PageKeys, _ photos: FetchedColumns<Photo>) throws -> [Bool] {
        var isStored = [Bool](repeating: false, count: page.photos.count)
        for (unique, photographer) in zip(try photos.values(\.$unique), try photos.destinations(\.$whoTook)) {
            guard let index = keys.positions[unique] else { continue }
            isStored[index] = photographer != nil
        }
        return isStored
    }

    /// For each photo of the page: stored with the same values and photographer.
    private static func identical(_ page: FeedPage, _ keys: PageKeys, _ photos: FetchedColumns<Photo>, owners: [ObjectID: Int]) throws -> [Bool] {
        let (uniques, titles, subtitles, imageURLs, uploaded, whoTook) = (
            try photos.values(\.$unique), try photos.values(\.$title), try photos.values(\.$subtitle),
            try photos.values(\.$imageURL), try photos.values(\.$uploaded), try photos.destinations(\.$whoTook))
        var isStored = [Bool](repeating: false, count: page.photos.count)
        for row in photos.ids.indices {
            guard let index = keys.positions[uniques[row]] else { continue }
            let item = page.photos[index]
            isStored[index] = sameBytes(item.title, titles[row]) && sameBytes(item.subtitle, subtitles[row])
                && sameBytes(item.imageURL, imageURLs[row]) && item.uploaded == uploaded[row]
                && whoTook[row].flatMap { owners[$0] } == keys.owners[index]
        }
        return isStored
    }

    /// Text compared as the catalog stores it, byte for byte: a title that only changes its
    /// Unicode normalization is a change to write (Swift's `==` would call it equal).
    private static func sameBytes(_ a: String, _ b: String) -> Bool {
        StoredValue.text(a) == StoredValue.text(b)
    }
}
