import GraphStore
import PhotoFeed

/// Renamed accounts: an NSID never changes upstream, a display name does (Flickypedia #446). When a
/// page gives an NSID that exactly one photographer holds under a new name that no photographer
/// holds and no delete excluded, that photographer is renamed before the page is saved, in a transaction of its own: its
/// photos stay with it and nothing is emptied. (Saved by name alone, the page's photos would move
/// to a new photographer and the rest stay with the old name.) Only where the feed wins
/// (`object-trump`): under `store-trump` and `error` the catalog's name stands.
///
/// Which name each NSID has in the catalog is remembered once read, so a run reads the catalog
/// about as often as it meets new accounts, not once a page; a rename checks it again.
final class AccountRenames {
    private let catalog: Catalog
    private let author: String?
    /// NSID → the name its photographer has in the catalog; nil: no single photographer (none, or
    /// several from before renames were followed).
    private var names: [String: String?] = [:]

    init(catalog: Catalog, author: String?) {
        (self.catalog, self.author) = (catalog, author)
    }

    /// Renames the photographers whose NSID `page` gives under a new name; returns how many.
    func follow(_ page: FeedPage) throws -> Int {
        let sent = Self.namesSent(in: page)
        try learn(sent.keys.filter { names[$0] == nil })
        var renames: [String: String] = [:]
        for (ownerID, name) in sent {
            if case .some(.some(let stored)) = names[ownerID], stored != name { renames[ownerID] = name }
        }
        let renamed = renames.isEmpty ? 0 : try rename(renames)
        // Once the page is saved, the photographer of that name holds the NSID's photos.
        for (ownerID, name) in sent { names[ownerID] = name }
        return renamed
    }

    /// Each NSID the page gives under exactly one name, with that name.
    private static func namesSent(in page: FeedPage) -> [String: String] {
        var sent: [String: String?] = [:]
        for photo in page.photos where !photo.ownerID.isEmpty {
            if let earlier = sent[photo.ownerID], earlier != photo.ownerName { sent[photo.ownerID] = .some(nil) } else { sent[photo.ownerID] = photo.ownerName }
        }
        return sent.compactMapValues { $0 }
    }

    private func learn(_ ownerIDs: [String]) throws {
        guard !ownerIDs.isEmpty else { return }
        let found = try catalog.withContext { context in
            try context.fetchColumns(FetchRequest<Photographer>(predicate: .isIn(\.$ownerID, ownerIDs)), [\.$ownerID, \.$name])
        }
        var held: [String: [String]] = [:]
        for (ownerID, name) in zip(try found.values(\.$ownerID), try found.values(\.$name)) { held[ownerID, default: []].append(name) }
        for ownerID in ownerIDs { names[ownerID] = .some(held[ownerID]?.count == 1 ? held[ownerID]![0] : nil) }
    }

    /// Renames the one photographer of each NSID of `renames` (NSID → new name) where no
    /// photographer holds the new name, in one save; returns how many were renamed. (Where one
    /// does, the page's photos go to that photographer: two accounts showing one name share one
    /// photographer, as names are the catalog's key.)
    private func rename(_ renames: [String: String]) throws -> Int {
        try catalog.withContext(mergePolicy: .error, author: author) { context in
            // A name a photographer holds, or a delete excluded (its photos are skipped), is taken.
            let wanted = Array(renames.values)
            let taken = Set(try context.fetchColumns(FetchRequest<Photographer>(predicate: .isIn(\.$name, wanted)), [\.$name]).values(\.$name))
                .union(try context.fetchColumns(FetchRequest<ExcludedPhotographer>(predicate: .isIn(\.$name, wanted)), [\.$name]).values(\.$name))
            let holders = Dictionary(grouping: try context.fetch(FetchRequest<Photographer>(predicate: .isIn(\.$ownerID, Array(renames.keys)))),
                                     by: \.ownerID)
            var renamed = 0
            for (ownerID, name) in renames {
                guard let held = holders[ownerID], held.count == 1, !taken.contains(name) else { continue }
                held[0].name = name
                renamed += 1
            }
            try context.save()
            return renamed
        }
    }
}
