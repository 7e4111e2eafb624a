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
    /// retains and releases on the runtime's slow path (a third of import time, measured). Its
    /// fields skip dynamic exclusivity checks, like ``Attribute``'s: plain loads and stores.
    @exclusivity(unchecked) unowned(safe) var owner: ManagedObject?
    /// This relationship's slot in its owner (set when the owner is created).
    var slot = 0
    /// The destination when known as an object.
    @exclusivity(unchecked) var object: Destination?
    /// The destination's row when read from the store and not yet resolved to an object.
    @exclusivity(unchecked) var rowID: Int64?
    /// The foreign key as last read from or written to the store.
    @exclusivity(unchecked) var committedRowID: Int64?
    @exclusivity(unchecked) var isAssigned = false

    /// What persistent history keeps of it: ``AttributeOption/tracked`` and
    /// ``AttributeOption/preservedOnDeletion`` (as the destination's unique key). As declared: a
    /// set built for every object created cost a tenth of creating a fetched one.
    let historyOptions: [AttributeOption]

    /// Declares a to-one relationship; `deleteRule` says what deleting the owner does to the destination.
    public init(deleteRule: DeleteRule = .nullify) {
        self.deleteRule = deleteRule
        historyOptions = []
    }

    /// Declares a to-one relationship that persistent history keeps (`.tracked`, `.preservedOnDeletion`),
    /// or whose column an earlier model version named otherwise (`.renamed(from:)`).
    public init(deleteRule: DeleteRule = .nullify, _ history: AttributeOption, _ more: AttributeOption...) {
        let options = more.isEmpty ? [history] : [history] + more
        for option in options {
            if case .renamed = option { continue }
            precondition(option == .tracked || option == .preservedOnDeletion,
                         "a to-one takes .tracked, .preservedOnDeletion and .renamed(from:) only")
        }
        self.deleteRule = deleteRule
        historyOptions = options
    }

    /// The destination, resolved from the store on first read; setting it keeps the inverse in step.
    public var wrappedValue: Destination? {
        get { resolved() }
        set { set(newValue) }
    }

    /// The relationship itself, for predicates (`.whose(\.$whoTook, ...)`) and prefetching.
    public var projectedValue: ToOne<Destination> { self }

    /// The destination's ID, read without loading the destination.
    ///
    /// Setting it points the relationship at a stored row without loading that row either (what
    /// Core Data's `object(with:)` fault gives): the cheap way to link new objects to rows known only
    /// by ID, e.g. from ``ObjectContext/fetchColumns(_:_:)``.
    ///
    /// ```swift
    /// photo.$whoTook.destinationID = photographerID   // no fetch
    /// ```
    /// If the destination is registered in the context, this is the same as setting the object. If
    /// not, it joins the destination's to-many when that object is first loaded in this context.
    /// The row must still exist when the save commits (its foreign key is checked then).
    public var destinationID: ObjectID? {
        get { object?.objectID ?? rowID.map { .permanent(Destination.cachedEntityName, $0) } }
        set { point(at: newValue) }
    }

    private func point(at id: ObjectID?) {
        guard let id else { return set(nil) }
        if let owner, owner.isOrphaned { owner.orphanedUse("changed") }
        precondition(id.entityName == Destination.cachedEntityName, "\(id) is not a \(Destination.cachedEntityName)")
        let context = owner?.context
        if let registered = context?.registeredObject(id) {
            return set(registered as? Destination)
        }
        guard let owner, let row = id.rowID else {
            preconditionFailure("\(id) is a temporary ID of another context (or of an object that left its context): "
                + "save that object first and use its permanent ID")
        }
        // Only a destination loaded as an object holds this owner in memory.
        let old = object ?? rowID.flatMap { context?.registeredObject(.permanent(Destination.cachedEntityName, $0)) as? Destination }
        if let old, owner.sharesGraph(with: old) { inverse(of: old)?.primitiveRemove(owner) }
        object = nil
        rowID = row
        isAssigned = true
        owner.didChangeProperty()
        context?.notePointer(from: owner, slot: slot, to: id)
    }

    func resolved() -> Destination? {
        if object == nil, let rowID, let context = owner?.context {
            object = context.registeredOrFaulted(Destination.self, rowID: rowID)
        }
        return object
    }

    /// Sets the destination and keeps the inverse to-many of the old and new destination in step.
    ///
    /// A destination from another context is kept here only: its own to-many (and context) is left
    /// alone, and this context's next save throws ``GraphStoreError/foreignObject(_:)``.
    func set(_ newValue: Destination?) {
        guard let owner else { return }
        if owner.isOrphaned { owner.orphanedUse("changed") }
        let old = resolved()
        guard old !== newValue else { return }
        if let old, owner.sharesGraph(with: old) { inverse(of: old)?.primitiveRemove(owner) }
        setPrimitive(newValue)
        if let newValue, owner.sharesGraph(with: newValue) { inverse(of: newValue)?.primitiveInsert(owner) }
    }

    private func inverse(of destination: Destination) -> (any AnyToManyStorage)? {
        owner?.entity.inverseSlot(of: slot).map { destination.toMany($0) }
    }

    // MARK: - AnyToOneStorage

    static var destinationType: ManagedObject.Type { Destination.self }
    var declaredDeleteRule: DeleteRule { deleteRule }
    var declaredHistoryOptions: Set<AttributeOption> { Set(historyOptions) }
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

    func rebase(committedRowID: Int64?) { self.committedRowID = committedRowID }

    func attach(_ destination: ManagedObject) {
        guard object == nil, let destination = destination as? Destination, destination.rowID == rowID, let owner else { return }
        object = destination
        inverse(of: destination)?.primitiveInsert(owner)
    }

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
    var declaredHistoryOptions: Set<AttributeOption> { get }
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
    /// Keeps the destination but takes `committedRowID` as the foreign key last read (a refresh that merges changes).
    func rebase(committedRowID: Int64?)
    /// Keeps the foreign key but lets go of the destination object.
    func forgetObject()
    /// Resolves a foreign key set by ``ToOne/destinationID`` to its destination, now loaded, and
    /// adds the owner to the destination's inverse to-many.
    func attach(_ destination: ManagedObject)
    func bind(to owner: ManagedObject, slot: Int)
}
