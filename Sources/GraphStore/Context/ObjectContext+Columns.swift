extension ObjectContext {
    /// The stored values of `properties` (attributes and to-one relationships) for the rows matching
    /// `request`, without building objects: Core Data's dictionary result type, typed by key paths.
    ///
    /// ```swift
    /// let photos = try context.fetchColumns(FetchRequest<Photo>(predicate: .isIn(\.$unique, incoming)),
    ///                                       [\.$unique, \.$title, \.$whoTook])
    /// let titles = try photos.values(\.$title)            // [String]
    /// let photographers = try photos.destinations(\.$whoTook)  // [ObjectID?]
    /// ```
    /// Reads only the named columns, so it suits comparing a batch of incoming records with the
    /// store before deciding what to insert. Without `sortBy` in the request, rows come in no
    /// particular order (like Core Data without sort descriptors; `fetch` orders objects by id). It sees the store as of the last save:
    /// unlike a fetch, it ignores this context's unsaved changes (there are no objects to hold them).
    /// It changes nothing about later saves.
    public func fetchColumns<T: ManagedObject>(_ request: FetchRequest<T>, _ properties: [PartialKeyPath<T>]) throws -> FetchedColumns<T> {
        let entity = try entity(for: T.self)
        let names = properties.map { keyPath in
            guard let name = entity.columnName(for: keyPath) else {
                preconditionFailure("\(keyPath) is not a stored attribute or to-one relationship of \(entity.name); use the $-prefixed key path, e.g. \\.$title")
            }
            return name
        }
        var query = request.query
        query.columns = names
        let stored = try read { try $0.fetchColumns(query) }
        return FetchedColumns(
            entityName: entity.name, ids: stored.rowIDs.map { .permanent(entity.name, $0) }, names: names, columns: stored.values)
    }
}
