import Foundation
import GraphStore
import PhotoFeed
import Synchronization

/// The photo catalog: the one object the commands talk to, over a GraphStore container.
public final class Catalog: Sendable {
    /// The catalog's path, or its PostgreSQL URL without the password: what messages show.
    let path: String
    let location: CatalogLocation
    let container: PersistentContainer
    /// The search index serve builds (``prepareSearchIndex(file:)``); searches read every title without it.
    let searchIndex = Mutex<SearchIndex<Photo>?>(nil)

    /// Opens (creating if needed, with mode 0600) the catalog at `path`: a file, or a
    /// `postgres://` URL (creating the tables in the database if needed).
    ///
    /// With `forReading`, an existing, current catalog is opened read-only: queries take no lock a
    /// fetch holds and work on a read-only file. A catalog that must be created or migrated first
    /// is opened for writing instead.
    /// - Throws: `PhotoSyncError.catalog` (exit 74) when it cannot.
    public convenience init(path: String, forReading: Bool = false) throws {
        try self.init(CatalogLocation(path), forReading: forReading)
    }

    /// `onlyReading` (serve) never falls back to a writable open: a catalog that needs creating or
    /// migrating is an error instead. `known` says the caller has just found the catalog there (a
    /// second probe would cost a PostgreSQL catalog another connection).
    init(_ location: CatalogLocation, forReading: Bool = false, onlyReading: Bool = false, known: Bool = false) throws {
        self.location = location
        path = location.display
        if forReading || onlyReading, known || Self.exists(location),
            let container = try? PersistentContainer(model: CatalogModel.make(), location: location.storeLocation, readOnly: true, tracksHistory: Self.tracksHistory)
        {
            self.container = container
            return
        }
        if onlyReading {
            throw PhotoSyncError.catalog("\(path) cannot be opened read-only (if an older photosync made it, 'photosync status' updates it first)")
        }
        if let file = location.filePath { try Self.createPrivately(file) }
        do throws(GraphStoreError) {
            container = try PersistentContainer(model: CatalogModel.make(), location: location.storeLocation, tracksHistory: Self.tracksHistory)
        } catch {
            throw PhotoSyncError.from(error, path: path)
        }
        try withContext { context in try Self.fillTitleKeys(context) }
    }

    /// Photos, optionally by one photographer or from one source (``FeedSource/label``), in the
    /// requested order. Read as columns, not objects: a prolific photographer's listing is tens of
    /// thousands of rows.
    public func list(photographer: String?, source: String? = nil, sort: ListSort, limit: Int?) throws -> [PhotoListing] {
        var query = ListQuery(photographer: photographer, sort: sort, limit: limit)
        query.source = source
        return try list(query)
    }

    /// `query`'s photos with `predicate` (built from it), sorted and windowed in SQL.
    func list(_ query: ListQuery, predicate: FetchPredicate<Photo>?) throws -> [PhotoListing] {
        return try withContext { context in
            try context.readingOneSnapshot {
                let predicate = try narrowed(predicate, query, context)
                let request = FetchRequest<Photo>(predicate: predicate, sortBy: Self.sortKeys(query.sort), limit: query.limit, offset: query.offset)
                let photos = query.withDetails
                    ? try context.fetchColumns(request, [\.$unique, \.$title, \.$uploaded, \.$whoTook, \.$subtitle, \.$imageURL, \.$source]
                        + Self.metadataColumns + Self.checkColumns)
                    : try context.fetchColumns(request, [\.$unique, \.$title, \.$uploaded, \.$whoTook] + Self.checkColumns)
                let checks = try Self.checks(photos)
                let (ids, titles, uploaded, whoTook) = (try photos.values(\.$unique), try photos.values(\.$title),
                                                        try photos.values(\.$uploaded), try photos.destinations(\.$whoTook))
                let owners = try Self.owners(Set(whoTook.compactMap { $0 }), in: context)
                let licenses = query.withDetails ? try Self.licenses(in: context) : [:]
                let metadata = query.withDetails ? try Self.metadata(photos) : []
                let details = query.withDetails
                    ? (try photos.values(\.$subtitle), try photos.values(\.$imageURL), try photos.values(\.$source)) : nil
                return ids.indices.map { row in
                    var listing = PhotoListing(id: ids[row], title: titles[row], subtitle: details?.0[row] ?? "",
                                               photographer: whoTook[row].flatMap { owners[$0]?.name } ?? "", imageURL: details?.1[row] ?? "",
                                               uploaded: uploaded[row], source: details?.2[row] ?? "")
                    listing.check = checks[row]
                    if query.withDetails {
                        (listing.metadata, listing.ownerID) = (metadata[row], whoTook[row].flatMap { owners[$0]?.ownerID } ?? "")
                        listing.licenseInfo = metadata[row].license.flatMap { licenses[$0] }
                    }
                    return listing
                }
            }
        }
    }

    /// Every photographer with their number of photos, by name.
    public func photographers() throws -> [PhotographerListing] {
        try photographers(first: nil)
    }

    /// The first `limit` photographers by name (nil: all), with their number of photos: a limit
    /// counts only its own photographers' photos, through the index (on 1M photos, `--limit 20`
    /// need not count them all).
    func photographers(first limit: Int?) throws -> [PhotographerListing] {
        try withContext { context in
            try context.readingOneSnapshot {
                let request = FetchRequest<Photographer>(sortBy: [.ascending(\.$name)], limit: limit)
                let photographers = try context.fetchColumns(request, [\.$name])
                let counts = try limit == nil ? context.memberCounts(\Photographer.$photos)
                    : context.memberCounts(\Photographer.$photos, of: photographers.ids)
                return zip(photographers.ids, try photographers.values(\.$name)).map { id, name in
                    PhotographerListing(name: name, photos: counts[id] ?? 0)
                }
            }
        }
    }

    /// Deletes the given photos, all or nothing; photographers left without photos go too. Their
    /// ids are remembered (later fetches skip them) unless `remembering` is false; `dryRun` only
    /// reports what would go.
    /// - Throws: `PhotoSyncError.notFound` listing the ids not in the catalog (nothing deleted).
    public func delete(photoIDs: [String], remembering: Bool = true, dryRun: Bool = false) throws -> DeletionReport {
        try withContext(mergePolicy: .objectTrump, author: "delete") { context in
            let wanted = Array(Set(photoIDs))
            let photos = try context.fetch(FetchRequest<Photo>(predicate: .isIn(\.$unique, wanted)).prefetching(\.$whoTook))
            let missing = Set(wanted).subtracting(photos.map(\.unique)).sorted()
            guard missing.isEmpty else {
                throw PhotoSyncError.notFound("not in the catalog: photo \(missing.joined(separator: ", ")); nothing was deleted")
            }
            if remembering { Self.exclude(photos.map(\.unique), photographer: nil, in: context) }
            return try Self.delete(photos, in: context, dryRun: dryRun)
        }
    }

    /// Deletes a photographer and all their photos, remembering both unless `remembering` is false
    /// (later fetches skip the photographer's photos until `restore`); `dryRun` only reports.
    /// - Throws: `PhotoSyncError.notFound` when no photographer has that name.
    public func delete(photographer name: String, remembering: Bool = true, dryRun: Bool = false) throws -> DeletionReport {
        try withContext(mergePolicy: .objectTrump, author: "delete") { context in
            guard let photographer = try context.fetch(FetchRequest<Photographer>(predicate: \.$name == name)).first else {
                throw PhotoSyncError.notFound("no photographer named \(name) in the catalog; nothing was deleted")
            }
            if remembering { Self.exclude(photographer.photos.map(\.unique), photographer: photographer, in: context) }
            return try Self.delete(photographer.photos, in: context, dryRun: dryRun)
        }
    }

    /// Counts and the `recentRuns` newest fetch runs (newest first).
    public func status(recentRuns: Int) throws -> CatalogStatus {
        try withContext { context in
            try context.readingOneSnapshot {
                let runs = try context.fetch(FetchRequest<FetchRun>(sortBy: [.descending(\.$started)], limit: recentRuns))
                // A run still marked running while no fetch holds the lock died (SIGKILL, power cut).
                let fetching = try fetchIsRunning()
                let files = try Self.fileCounts(in: context)
                let photos = try context.count(FetchRequest<Photo>())
                var status = CatalogStatus(
                    photos: photos,
                    photographers: try context.count(FetchRequest<Photographer>()),
                    runs: runs.map { FetchRunRecord($0, fetching: fetching) },
                    excludedPhotos: try context.count(FetchRequest<ExcludedPhoto>()),
                    excludedPhotographers: try context.count(FetchRequest<ExcludedPhotographer>()),
                    apiCallsLastHour: try apiCallsLastHour(in: context),
                    sources: try Self.sources(in: context))
                (status.files, status.fileBytes, status.filesUnavailable) = files
                status.filesPending = max(0, photos - files.files - files.unavailable)
                return status
            }
        }
    }

    // MARK: - Helpers

    static func delete(_ photos: [Photo], in context: ObjectContext, dryRun: Bool) throws -> DeletionReport {
        let photographers = photos.compactMap(\.whoTook)
        let ids = photos.map(\.unique)
        let files = try context.fetch(FetchRequest<PhotoFile>(predicate: .isIn(\.$photo, ids)))
        let filePaths = files.filter(\.isVerified).map(\.path).sorted()
        files.forEach(context.delete)
        for photo in photos { context.delete(photo) }
        if dryRun { _ = try context.previewSave() } else { try context.save() }
        let removed = Set(photographers.lazy.filter(\.isDeleted).map(\.name))
        return DeletionReport(photoIDs: ids.sorted(), photographersRemoved: removed.sorted(), filePaths: filePaths)
    }

    private static func sortKeys(_ sort: ListSort) -> [FetchSort<Photo>] {
        switch sort {
        // Dictionary order by the stored key; equal keys by the title's bytes, then the id.
        case .title: [.ascending(\.$titleKey), .ascending(\.$title), .ascending(\.$unique, .numericText)]
        case .uploaded: [.descending(\.$uploaded), .ascending(\.$unique, .numericText)]
        case .id: [.ascending(\.$unique, .numericText)]
        }
    }

    /// Runs `body` with a new context, reporting store failures as catalog errors (74). Its saves
    /// are recorded in the catalog's history under `author` (see `photosync changes`).
    func withContext<T>(mergePolicy: MergePolicy = .error, author: String? = nil, _ body: (ObjectContext) throws -> T) throws -> T {
        do {
            let context = container.newContext(mergePolicy: mergePolicy)
            context.transactionAuthor = author
            return try body(context)
        } catch let error as GraphStoreError {
            throw PhotoSyncError.from(error, path: path)
        }
    }

    /// Ends the catalog's reads, running and to come, with an error: for a server that is stopping.
    func interruptReads() {
        container.interruptReads()
    }

    /// Whether the catalog keeps its history (`photosync changes`): always, but in the binary
    /// `make bench` builds to measure what history costs (Benchmarks/history_bench.py).
    #if PHOTOSYNC_BENCH_WITHOUT_HISTORY
    static let tracksHistory = false
    #else
    static let tracksHistory = true
    #endif

    static func exists(_ location: CatalogLocation) -> Bool {
        (try? PersistentContainer.storeExists(at: location.storeLocation)) == true
    }

    /// Creates the file with owner-only permissions before SQLite does (its -wal and -shm files copy them).
    private static func createPrivately(_ path: String) throws {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            if errno == EACCES || errno == EROFS, access(path, R_OK) == 0 { return }
            throw PhotoSyncError.catalog("cannot open catalog \(path): \(reason)")
        }
        close(descriptor)
    }
}

extension FetchRunRecord {
    /// `run` as `status` shows it: a run marked running is abandoned unless a fetch is `fetching`.
    init(_ run: FetchRun, fetching: Bool) {
        var outcome = Outcome(rawValue: run.outcome) ?? .failed
        if outcome == .running && !fetching { outcome = .abandoned }
        self.init(started: run.started, finished: run.finished, outcome: outcome, summary: run.summary, error: run.error,
                  id: run.objectID.rowID.map(Int.init))
    }
}
