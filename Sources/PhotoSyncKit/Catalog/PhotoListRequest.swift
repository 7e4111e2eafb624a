import Foundation

/// `list` as both `photosync list` and the gallery's `/api/photos` run it: one implementation, so
/// the API's JSON is byte for byte the command's for the same options.
struct PhotoListRequest {
    var query: ListQuery
    /// The files folder, for JSON's `file` paths (nil: paths relative to it, as on PostgreSQL
    /// without one on this host).
    var filesFolder: String?

    /// The photos, retrying a photographer name that matched nothing with its one case-folded
    /// match (said on stderr); returns the query actually run.
    /// - Throws: `.notFound` with the closest names when no name matches.
    func photos(in catalog: Catalog) throws -> (photos: [PhotoListing], query: ListQuery) {
        var query = query
        var photos = try catalog.list(query)
        if photos.isEmpty, let photographer = query.photographer, !(try catalog.hasPhotographer(named: photographer)) {
            query.photographer = try PhotographerArgument.resolveForListing(photographer, in: catalog)
            photos = try catalog.list(query)
        }
        return (photos, query)
    }

    /// The output in `format`; JSON and JSON lines carry each photo's verified file.
    func render(in catalog: Catalog, as format: TabularFormat, lineWidth: Int? = nil, time: TableTime = .utc) throws -> String {
        let (photos, query) = try photos(in: catalog)
        let files = [.json, .jsonl].contains(format) ? try filePaths(of: photos, in: catalog) : nil
        return try PhotoListOutput.render(photos, as: format, photographer: query.photographer, lineWidth: lineWidth, time: time, files: files)
    }

    /// Absolute paths of the photos' verified files by photo id. A short list asks for its own
    /// files only; a long one reads them all at once.
    private func filePaths(of photos: [PhotoListing], in catalog: Catalog) throws -> [String: String] {
        let files = photos.count <= 500 ? try catalog.verifiedFiles(of: photos.map(\.id)) : try catalog.verifiedFiles()
        return files.mapValues { file in filesFolder.map { $0 + "/" + file.path } ?? file.path }
    }
}
