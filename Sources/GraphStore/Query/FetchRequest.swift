/// What to fetch: an entity, an optional predicate, sort keys, a window, relationships to prefetch.
///
/// ```swift
/// let request = FetchRequest<Photo>(
///     predicate: .whose(\.$whoTook, \.$name == "Ana Lima"),
///     sortBy: [.ascending(\.$title), .ascending(\.$unique)],
///     limit: 20
/// ).prefetching(\.$whoTook)
/// let photos = try context.fetch(request)
/// ```
/// The store evaluates it; the context's unsaved objects of the entity are matched in memory by the
/// same rules (unless `includesPendingChanges` is false). Objects the context already holds are
/// returned as those instances, with their unsaved values.
public struct FetchRequest<Root: ManagedObject>: Sendable {
    public var predicate: FetchPredicate<Root>?
    public var sortBy: [FetchSort<Root>]
    public var limit: Int?
    public var offset: Int?
    /// Whether the context's unsaved inserts, changes and deletes of this entity count (Core Data's
    /// default, so find-or-create code finds what it created): see ``ObjectContext/fetch(_:)``.
    public var includesPendingChanges = true
    var prefetchedRelationships: [String] = []

    public init(predicate: FetchPredicate<Root>? = nil, sortBy: [FetchSort<Root>] = [], limit: Int? = nil, offset: Int? = nil) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.limit = limit
        self.offset = offset
    }

    /// Also loads the destinations of this to-one relationship, in one query per fetch
    /// (no query per object when they are read).
    public func prefetching<Destination>(_ relationship: KeyPath<Root, ToOne<Destination>>) -> FetchRequest {
        var copy = self
        copy.prefetchedRelationships.append(FetchPredicate<Root>.relationshipName(relationship))
        return copy
    }

    var query: StoreQuery {
        StoreQuery(
            entity: Root.cachedEntityName, predicate: predicate?.node, sortBy: sortBy.map(\.node),
            limit: limit, offset: offset)
    }
}

/// A fetch in store-independent form.
struct StoreQuery: Sendable {
    var entity: String
    var predicate: PredicateNode?
    var sortBy: [SortNode] = []
    var limit: Int?
    var offset: Int?
    /// The columns to read (after `id`), in this order; nil reads every column (``EntityDescription/columns``).
    var columns: [String]?
}
