import GraphStore
import PhotoFeed

/// Renamed accounts: an NSID never changes upstream, a display name does (Flickypedia #446). When a
/// page gives an NSID that exactly one photographer holds under a new name that no photographer
/// holds and no delete excluded, that photographer is renamed before the page is saved, in a
/// transaction of its own: its photos stay with it and nothing is emptied. (Saved by name alone,
/// the page's photos would move to a new photographer and the rest stay with the old name.) Only
/// where the feed wins (`object-trump`): under `store-trump` and `error` the catalog's name stands.
///
/// Only a name nobody holds can be a rename, so the names a run found held are remembered: once a
/// run knows its feed's names, a page costs no query at all. (A name not held yet is looked up
/// again: the page that brought it may not have stored it, its photos excluded.) A page with a
/// free name costs a second read, of which of its NSIDs a photographer has. Both are read in the
/// page's save (``check(_:in:)``); only a rename opens a transaction of its own (a first import,
/// no NSID stored, never does).
final class AccountRenames {
    private let catalog: Catalog
    private let author: String?
    /// Names a photographer held when looked up.
    private var held: Set<String> = []
    /// Photographers renamed so far.
    private(set) var renamed = 0

    init(catalog: Catalog, author: String?) {
        (self.catalog, self.author) = (catalog, author)
    }

    /// Renames wanted before a page is saved: NSID → a name nobody held (thrown out of the page's
    /// save, which is then rolled back, to rename in a transaction of its own first).
    struct Wanted: Error {
        let renames: [String: String]
    }

    /// Throws ``Wanted`` when `page` gives an NSID a photographer holds under a name nobody holds,
    /// read through `context`: inside the page's save, so a page with no rename costs no
    /// transaction of its own.
    func check(_ page: FeedPage, in context: ObjectContext) throws {
        var unknown = Set<String>()
        for photo in page.photos where !held.contains(photo.ownerName) { unknown.insert(photo.ownerName) }
        guard !unknown.isEmpty else { return }
        let found = try Self.stored(\.$name, Array(unknown), in: context)
        held.formUnion(found)
        let accounts = Self.accounts(in: page, under: unknown.subtracting(found))
        let holders = accounts.isEmpty ? [] : try Self.stored(\.$ownerID, Array(accounts.keys), in: context)
        let candidates = accounts.filter { holders.contains($0.key) }
        if !candidates.isEmpty { throw Wanted(renames: candidates) }
    }

    /// Makes the renames `wanted` asks for, where the names are still free, in a transaction of its own.
    func rename(_ wanted: Wanted) throws {
        let freed = try rename(wanted.renames)
        held.subtract(freed)
        renamed += freed.count
    }

    /// The NSIDs `page` gives under one of `names`, and under that name only, with the name.
    private static func accounts(in page: FeedPage, under names: Set<String>) -> [String: String] {
        guard !names.isEmpty else { return [:] }
        var sent: [String: String?] = [:]
        for photo in page.photos where !photo.ownerID.isEmpty {
            if let index = sent.index(forKey: photo.ownerID) {
                if sent.values[index] != photo.ownerName { sent.values[index] = nil }
            } else {
                sent[photo.ownerID] = .some(photo.ownerName)
            }
        }
        return sent.compactMapValues { (name: String?) -> String? in
            guard let name, names.contains(name) else { return nil }
            return name
        }
    }

    /// Which of `values` a photographer has as `column` (its name, or its NSID).
    private static func stored(_ column: KeyPath<Photographer, Attribute<String>>, _ values: [String], in context: ObjectContext) throws -> Set<String> {
        Set(try context.fetchColumns(FetchRequest<Photographer>(predicate: .isIn(column, values)), [column]).values(column))
    }

    /// Renames the one photographer of each NSID of `renames` (NSID → a name nobody held) where the
    /// name is still free, in one save; returns the old names. (Where a photographer holds it, the
    /// page's photos go to that one: two accounts showing one name share one photographer, as
    /// names are the catalog's key.)
    private func rename(_ renames: [String: String]) throws -> [String] {
        try catalog.withContext(mergePolicy: .error, author: author) { context in
            let holders = Dictionary(grouping: try context.fetch(FetchRequest<Photographer>(predicate: .isIn(\.$ownerID, Array(renames.keys)))),
                                     by: \.ownerID).compactMapValues { $0.count == 1 ? $0[0] : nil }
            guard !holders.isEmpty else { return [] }
            // A name a photographer holds, or a delete excluded (its photos are skipped), is taken.
            let wanted = holders.keys.compactMap { renames[$0] }
            let taken = Set(try context.fetchColumns(FetchRequest<Photographer>(predicate: .isIn(\.$name, wanted)), [\.$name]).values(\.$name))
                .union(try context.fetchColumns(FetchRequest<ExcludedPhotographer>(predicate: .isIn(\.$name, wanted)), [\.$name]).values(\.$name))
            var freed: [String] = []
            for (ownerID, photographer) in holders {
                guard let name = renames[ownerID], !taken.contains(name) else { continue }
                freed.append(photographer.name)
                photographer.name = name
            }
            try context.save()
            return freed
        }
    }
}
