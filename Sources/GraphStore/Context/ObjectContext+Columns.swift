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
    /// particular order (like Core Data without sort descriptors; `fetch` orders objects by id). Like a fetch, it sees the store as of the last save;
    /// unlike a fetch, it ignores this context's unsaved changes (there are no objects to hold them).
    /// Fetched by `isIn` on a single-attribute unique constraint, it also tells the next save which
    /// of those values are not stored (see the README's "Reading and writing values without objects").
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
        noteAbsentKeys(query, stored, entity)
        return FetchedColumns(
            entityName: entity.name, ids: stored.rowIDs.map { .permanent(entity.name, $0) }, names: names, columns: stored.values)
    }

    /// A fetch by `isIn` on a single-attribute unique constraint tells which of those values no
    /// stored row has (see ``uniqueLookups``).
    private func noteAbsentKeys(_ query: StoreQuery, _ stored: StoredColumns, _ entity: EntityDescription) {
        guard case .isIn(let column, let values)? = query.predicate, query.limit == nil, query.offset == nil,
            entity.uniqueConstraints.contains([column]), let index = query.columns?.firstIndex(of: column)
        else { return }
        uniqueLookups[entity.name + "." + column, default: []].append((values, stored.values[index]))
    }
}

extension ObjectContext {
    /// Until the next save or rollback, new objects' values of the unique attribute `attribute` are
    /// taken as not stored: the save inserts them without looking them up first. If one is stored
    /// after all, the save's transaction rolls back and runs again looking every value up, so the
    /// merge policy decides exactly as it would have (the assumption only costs time when wrong).
    ///
    /// For imports of records that are nearly all new, where a lookup per record would find nothing:
    /// ```swift
    /// context.assumeAbsent(\Photo.$unique)
    /// try context.save()
    /// ```
    public func assumeAbsent<T: ManagedObject, V: AttributeValue>(_ attribute: KeyPath<T, Attribute<V>>) {
        let entity = EntityDescription.of(T.self)
        guard let slot = entity.slot(of: attribute), let description = entity.attribute(atSlot: slot),
            entity.uniqueConstraints.contains([description.name])
        else { preconditionFailure("\(attribute) is not a unique attribute of \(entity.name)") }
        assumedAbsent.insert(entity.name + "." + description.name)
    }
}
