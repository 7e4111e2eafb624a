import Foundation
import GraphStore
import PhotoFeed

/// Keeps the catalog's ``License`` rows ahead of the photos a fetch saves: a page bringing a
/// license id the catalog lacks has `flickr.photos.licenses.getInfo` asked, once per run, and the
/// answer stored before the page. A failed ask is a warning: the photos keep their id, and the next
/// fetch that meets it asks again. A dry run stores nothing, so it asks nothing.
final class LicenseLookup {
    private let catalog: Catalog
    private let source: FeedSource
    let dryRun: Bool
    private var known: Set<String>
    private var asked = false

    init(catalog: Catalog, source: FeedSource, dryRun: Bool) throws {
        (self.catalog, self.source, self.dryRun) = (catalog, source, dryRun)
        known = dryRun || source.isSingleDocument ? [] : try catalog.licenseIDs()
    }

    func meet(_ page: FeedPage) throws {
        guard !dryRun, !asked, !source.isSingleDocument,
              page.photos.contains(where: { $0.metadata.license.map { !known.contains($0) } ?? false }) else { return }
        asked = true
        do {
            let licenses = try source.licenses()
            try catalog.store(licenses)
            known.formUnion(licenses.map(\.id))
        } catch let error as PhotoSyncError {
            switch error {
            case .interrupted, .timeLimit, .catalog, .locked: throw error
            default: Console.warning("license names unavailable (\(error.message)): photos keep their license id; the next fetch asks again")
            }
        }
    }
}

extension Catalog {
    /// The license ids the catalog has names for.
    func licenseIDs() throws -> Set<String> {
        try withContext { Set(try $0.fetchColumns(FetchRequest<License>(), [\.$number]).values(\.$number)) }
    }

    /// Stores `licenses` (a license Flickr renamed takes its new name).
    func store(_ licenses: [FeedLicense]) throws {
        try withContext(mergePolicy: .objectTrump) { context in
            let stored = Dictionary(try context.fetch(FetchRequest<License>()).map { ($0.number, $0) }, uniquingKeysWith: { a, _ in a })
            for license in licenses {
                let row = stored[license.id] ?? context.insert(License.self)
                (row.number, row.name, row.url) = (license.id, license.name, license.url)
            }
            try context.save()
        }
    }

    /// Every stored license by id (for `list` and `show`).
    static func licenses(in context: ObjectContext) throws -> [String: FeedLicense] {
        let rows = try context.fetchColumns(FetchRequest<License>(), [\.$number, \.$name, \.$url])
        let (ids, names, urls) = (try rows.values(\.$number), try rows.values(\.$name), try rows.values(\.$url))
        return Dictionary(ids.indices.map { (ids[$0], FeedLicense(id: ids[$0], name: names[$0], url: urls[$0])) }, uniquingKeysWith: { a, _ in a })
    }
}
