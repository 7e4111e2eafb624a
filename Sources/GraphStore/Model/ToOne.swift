/// A to-one relationship of a ``ManagedObject``, stored as a foreign key column.
///
/// ```swift
/// final class Photo: ManagedObject {
///     @ToOne(deleteRule: .nullify) var whoTook: Photographer?
/// }
/// ```
/// Its inverse is the ``ToMany`` on the destination that names it (`@ToMany(inverse: \Photo.$whoTook)`);
/// only the to-many side names the pair, as Swift cannot type-check two wrappers that name each other.
/// Setting it updates the inverse to-many in memory at once, without loading it from the store.
@propertyWrapper
public final class ToOne<Destination: ManagedObject>: AnyToOneStorage {
    let deleteRule: DeleteRule
    /// Unowned, not weak: a weak reference would give every object a side table and put all its
    /// retains and releases on the runtime's slow path (a third of import time, measured).
    unowned(safe) var owner: ManagedObject?
    /// This relationship's slot in its owner (set when the owner is created).
    var slot = 0
    /// The destination when known as an object.
    var object: Destination?
    /// The destination's row when read from the store and not yet resolved to an object.
    var rowID: Int64?
    /// The foreign key as last read from or written to the store.
    var committedRowID: Int64?
    var isAssigned = false

    /// Declares a to-one relationship; `deleteRule` says what deleting the owner does to the destination.
    public init(deleteRule: DeleteRule = .nullify) {
        self.deleteRule = deleteRule
    }

    /// The destination, resolved from the store on first read; setting it keeps the inverse in step.
    public var wrappedValue: Destination? {
        get { resolved() }
        set { set(newValue) }
    }

    /// The relationship itself, for predicates (`.whose(\.$whoTook, ...)`) and prefetching.
    public var projectedValue: ToOne<Destination> { self }

    func resolved() -> Destination? {
        if object == nil, let rowID, let context = owner?.context {
            object = context.registeredOrFaulted(Destination.self, rowID: rowID)
        }
        return object
    }

    /// Sets the destination and keeps the inverse to-many of the old and new destination in step.
    func set(_ newValue: Destination?) {
        let old = resolved()
        guard old !== newValue, let owner else { return }
        if let old { inverse(of: old)?.primitiveRemove(owner) }
        setPrimitive(newValue)
        if let newValue { inverse(of: newValue)?.primitiveInsert(owner) }
    }

    private func inverse(of destination: Destination) -> (any AnyToManyStorage)? {
        owner?.entity.inverseSlot(of: slot).map { destination.toMany($0) }
    }

    // MARK: - AnyToOneStorage

    static var destinationType: ManagedObject.Type { Destination.self }
    var declaredDeleteRule: DeleteRule { deleteRule }
    var anyDestination: ManagedObject? { resolved() }
    var loadedDestination: ManagedObject? { object }

    func set(_ destination: ManagedObject?) { set(destination as? Destination) }

    func setPrimitive(_ destination: ManagedObject?) {
        object = destination as? Destination
        rowID = destination?.rowID
        isAssigned = true
        owner?.didChangeProperty()
    }

    func load(rowID: Int64?) {
        object = nil
        self.rowID = rowID
        committedRowID = rowID
        isAssigned = false
    }

    func commit(rowID: Int64?) {
        self.rowID = rowID
        committedRowID = rowID
        isAssigned = false
    }

    func forgetObject() { object = nil }

    func revert() {
        object = nil
        rowID = committedRowID
        isAssigned = false
    }

    func bind(to owner: ManagedObject, slot: Int) {
        self.owner = owner
        self.slot = slot
    }
}

/// The type-erased face of ``ToOne``.
protocol AnyToOneStorage: AnyObject {
    static var destinationType: ManagedObject.Type { get }
    var declaredDeleteRule: DeleteRule { get }
    /// The destination, resolving a stored foreign key (may query the store).
    var anyDestination: ManagedObject? { get }
    /// The destination if already known as an object (never queries).
    var loadedDestination: ManagedObject? { get }
    var rowID: Int64? { get }
    var committedRowID: Int64? { get }
    var isAssigned: Bool { get }
    /// Sets the destination and keeps both inverses in step.
    func set(_ destination: ManagedObject?)
    /// Sets the destination without touching the inverse (the inverse side calls this).
    func setPrimitive(_ destination: ManagedObject?)
    func load(rowID: Int64?)
    func commit(rowID: Int64?)
    func revert()
    /// Keeps the foreign key but lets go of the destination object.
    func forgetObject()
    func bind(to owner: ManagedObject, slot: Int)
}
