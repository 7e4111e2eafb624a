import GraphStore
@testable import PhotoSyncKit

/// The catalog read back as the model's dictionaries, with every broken invariant: straight from
/// the store in one snapshot after every step, and now and then through the commands' own reads
/// (`list`, `photographers`, `status`), which must agree.
struct CatalogReading {
    var model = FetchModel()
    /// Fetch runs, newest first.
    var runs: [FetchRunRecord] = []
    /// Broken invariants: photographers without photos, photos without a photographer, two
    /// photographers with one name, an id twice, counts that disagree, excluded rows still present.
    var problems: [String] = []
    /// Whether the catalog records an unfinished cut walk to catch up on.
    var catchingUp = false

    /// Reads the runs only `readingRuns` (a step that fetches); `throughCommands` reads them too.
    init(_ catalog: Catalog, throughCommands: Bool, readingRuns: Bool = true) throws {
        try catalog.withContext { context in try context.readingOneSnapshot { try read(context, runs: readingRuns || throughCommands) } }
        checkExclusions()
        if throughCommands { try compare(catalog) }
    }

    private mutating func read(_ context: ObjectContext, runs readingRuns: Bool) throws {
        let owners = try context.fetchColumns(FetchRequest<Photographer>(), [\.$name, \.$ownerID])
        var names: [ObjectID: String] = [:]
        for (id, (name, ownerID)) in zip(owners.ids, zip(try owners.values(\.$name), try owners.values(\.$ownerID))) {
            if model.owners.updateValue(ownerID, forKey: name) != nil { problems.append("two photographers named \(name)") }
            names[id] = name
        }
        let photos = try context.fetchColumns(FetchRequest<Photo>(), [\.$unique, \.$title, \.$subtitle, \.$imageURL, \.$uploaded, \.$whoTook])
        let (ids, titles, subtitles, urls, uploaded, whoTook) = (try photos.values(\.$unique), try photos.values(\.$title),
            try photos.values(\.$subtitle), try photos.values(\.$imageURL), try photos.values(\.$uploaded), try photos.destinations(\.$whoTook))
        for row in ids.indices {
            guard let name = whoTook[row].flatMap({ names[$0] }) else {
                problems.append("photo \(ids[row]) has no photographer")
                continue
            }
            let photo = ModelPhoto(title: titles[row], subtitle: subtitles[row], imageURL: urls[row], uploaded: uploaded[row], photographer: name)
            if model.photos.updateValue(photo, forKey: ids[row]) != nil { problems.append("photo \(ids[row]) stored twice") }
        }
        let withPhotos = Set(model.photos.values.map(\.photographer))
        for name in model.owners.keys where !withPhotos.contains(name) { problems.append("photographer \(name) has no photos") }
        let excluded = try context.fetchColumns(FetchRequest<ExcludedPhoto>(), [\.$unique, \.$photographer])
        for (id, name) in zip(try excluded.values(\.$unique), try excluded.values(\.$photographer)) { model.excludedIDs[id] = .some(name) }
        let excludedNames = try context.fetchColumns(FetchRequest<ExcludedPhotographer>(), [\.$name, \.$ownerID])
        model.excludedNames = Dictionary(uniqueKeysWithValues: zip(try excludedNames.values(\.$name), try excludedNames.values(\.$ownerID).map { $0 ?? "" }))
        catchingUp = try context.count(FetchRequest<SourceBackfill>()) > 0
        guard readingRuns else { return }
        runs = try context.fetch(FetchRequest<FetchRun>(sortBy: [.descending(\.$started)])).map { FetchRunRecord($0, fetching: false) }
    }

    /// What a delete excluded never comes back while it stays excluded.
    private mutating func checkExclusions() {
        for id in model.photos.keys where model.excludedIDs[id] != nil { problems.append("excluded photo \(id) is in the catalog") }
        for name in model.owners.keys where model.excludedNames[name] != nil { problems.append("excluded photographer \(name) is in the catalog") }
    }

    /// `list`, `photographers` and `status` show what the store holds.
    private mutating func compare(_ catalog: Catalog) throws {
        let listed = try catalog.list(photographer: nil, sort: .id, limit: nil)
        let shown = Dictionary(listed.map { ($0.id, ModelPhoto(title: $0.title, subtitle: $0.subtitle, imageURL: $0.imageURL,
                                                               uploaded: $0.uploaded, photographer: $0.photographer)) }, uniquingKeysWith: { a, _ in a })
        if listed.count != shown.count || shown != model.photos { problems.append("list shows other photos than the store holds") }
        let photographers = try catalog.photographers()
        let counted = Dictionary(grouping: model.photos.values, by: \.photographer).mapValues(\.count)
        if Dictionary(photographers.map { ($0.name, $0.photos) }, uniquingKeysWith: { _, _ in -1 }) != counted {
            problems.append("photographers shows \(photographers.map { "\($0.name) \($0.photos)" }), the store \(counted)")
        }
        let status = try catalog.status(recentRuns: 1_000)
        if status.photos != model.photos.count || status.photographers != model.owners.count
            || status.excludedPhotos != model.excludedIDs.count || status.excludedPhotographers != model.excludedNames.count {
            problems.append("status counts \(status.photos)/\(status.photographers) photos/photographers and \(status.excludedPhotos)/\(status.excludedPhotographers) exclusions, the store \(model.photos.count)/\(model.owners.count) and \(model.excludedIDs.count)/\(model.excludedNames.count)")
        }
        if status.runs != runs { problems.append("status shows \(status.runs.count) runs, the store \(runs.count)") }
    }
}
