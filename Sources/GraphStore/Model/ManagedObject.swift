/// The base class of every entity: an object of the graph, owned by one ``ObjectContext``.
///
/// Subclasses are `final class`es with a `required init()` (the synthesized one does) that declare
/// their properties with ``Attribute``, ``ToOne`` and ``ToMany``, and override the lifecycle hooks
/// they need. Every hook does nothing by default.
///
/// ```swift
/// final class Photographer: ManagedObject {
///     @Attribute(.unique) var name = ""
///     @ToMany(inverse: \Photo.$whoTook, deleteRule: .cascade) var photos: [Photo]
/// }
/// ```
///
/// > Important: Objects are not `Sendable`: they never leave the context (and task) that owns them.
/// > Pass ``objectID`` across instead.
open class ManagedObject {
    /// `discarded`: a duplicate a save's merge policy folded into another object (its survivor);
    /// unlike `detached` (never inserted, or an insert rolled back) it can never be saved again.
    enum State { case detached, inserted, clean, updated, deleted, discarded }

    /// The property wrappers, in ``FieldLayout`` order, typed once at creation (a cast per access
    /// would cost a conformance lookup each time).
    private(set) var properties: [PropertyStorage] = []
    var state = State.detached
    var rowID: Int64?
    public internal(set) var objectID: ObjectID
    public internal(set) weak var context: ObjectContext?

    public required init() {
        let layout = FieldLayout.of(Self.self)
        objectID = .temporary(layout.entityName)
        properties = layout.properties(of: self)
        for (slot, property) in properties.enumerated() {
            switch property {
            case .attribute(let attribute): attribute.bind(to: self)
            case .toOne(let toOne): toOne.bind(to: self, slot: slot)
            case .toMany(let toMany): toMany.bind(to: self, slot: slot)
            }
        }
    }

    /// The entity's name, and its table's: the class name unless overridden.
    open class var entityName: String { String(describing: self) }

    /// The entity's name in an earlier model version (Core Data's `renamingIdentifier`): a migration
    /// renames its table, keeping the rows (see <doc:Migration>). Nil unless overridden.
    open class var renamedFrom: String? { nil }

    /// Whether a container that tracks history records this entity's changes. Override with
    /// `false` for bookkeeping rows (run records, counters) that nobody reads as changes: their
    /// writes then cost no history, which also matters when the disk is nearly full.
    open class var keepsHistory: Bool { true }

    /// ``entityName`` computed once per class: `String(describing:)` demangles the type's name on
    /// every call, which per-row code (faulting, fetched columns) cannot afford.
    @usableFromInline
    static var cachedEntityName: String { FieldLayout.of(self).entityName }

    /// Composite unique constraints, each a list of attribute key paths (`[[\Event.$source, \Event.$externalID]]`).
    /// Single-attribute constraints are declared with `@Attribute(.unique)`.
    open class var compositeUniqueConstraints: [[AnyKeyPath]] { [] }

    /// Composite indexes, each a list of attribute or to-one key paths, in index order
    /// (`[[\Photo.$whoTook, \Photo.$title]]`: a photographer's photos by title). A to-one's own
    /// index is left out when a composite index starts with it. Single-attribute indexes are
    /// declared with `@Attribute(.indexed)`.
    open class var compositeIndexes: [[AnyKeyPath]] { [] }

    // MARK: - Lifecycle hooks

    /// Called once, when the object is inserted into a context. Set defaults that need code here.
    open func awakeFromInsert() {}

    /// Called after the object is created from a stored row.
    open func awakeFromFetch() {}

    /// Called at the start of every save the object takes part in (inserted, updated or deleted).
    /// Changes made here are saved in the same save.
    open func willSave() {}

    /// Called after a save that wrote this object has committed.
    open func didSave() {}

    /// Called once per deleted object, cascade victims included, during the save, before any
    /// relationship is torn down. It may delete or change other objects; those join the same save.
    open func prepareForDeletion() {}

    /// Validates the object before it is written (inserted or updated); throw to fail the save.
    /// Throwing ``ValidationFailure`` names the rule in the save's `validationFailed` error (every
    /// object's failures are listed); any other error ends the save and reaches its caller as it is.
    open func validateForSave() throws {}

    // MARK: - State

    public var isInserted: Bool { state == .inserted }
    public var isUpdated: Bool { state == .updated }
    public var isDeleted: Bool { state == .deleted }
    /// Whether the object has unsaved changes (inserted, updated or deleted).
    public var hasChanges: Bool { state == .inserted || state == .updated || state == .deleted }

    func didChangeProperty() {
        switch state {
        case .detached: return
        case .clean:
            guard let context else { orphanedUse("changed") }
            state = .updated
            context.objectDidChange(self)
        case .inserted, .updated, .deleted, .discarded:
            if context == nil { orphanedUse("changed") }
        }
    }

    /// Whether the object was in a context that is gone (released or reset), or was deleted by a save.
    var isOrphaned: Bool { state != .detached && context == nil }

    /// Whether a relationship between this object and `other` may keep both sides in step: they are
    /// in one context, or one of them is in none yet (a new object, inserted later).
    func sharesGraph(with other: ManagedObject) -> Bool {
        other.context === context || state == .detached || other.state == .detached
    }

    /// Stops a misuse that would otherwise lose data silently: a change to an object no context
    /// holds could never be saved.
    func orphanedUse(_ verb: String) -> Never {
        if state == .discarded {
            preconditionFailure("\(objectID) was \(verb) after a save discarded it as a duplicate (the merge policy kept another "
                + "object with the same unique key); change the object that survived: fetch it by that key")
        }
        preconditionFailure("\(objectID) was \(verb) after its context was released or reset (or after a save deleted it); "
            + "fetch it again by objectID in a live context")
    }

    private var cachedEntity: EntityDescription?

    /// The object's entity, looked up once per object (the lookup takes a lock).
    var entity: EntityDescription {
        if let cachedEntity { return cachedEntity }
        let entity = EntityDescription.of(type(of: self))
        cachedEntity = entity
        return entity
    }

    /// Drops the references this object holds to other objects (its context is going away).
    func detachFromGraph() {
        context = nil
        forEachToOne { $0.forgetObject() }
        forEachToMany { $0.unload() }
    }

    func attribute(_ slot: Int) -> any AnyAttributeStorage {
        guard case .attribute(let attribute) = properties[slot] else { preconditionFailure("slot \(slot) is not an attribute") }
        return attribute
    }

    func toOne(_ slot: Int) -> any AnyToOneStorage {
        guard case .toOne(let toOne) = properties[slot] else { preconditionFailure("slot \(slot) is not a to-one") }
        return toOne
    }

    func toMany(_ slot: Int) -> any AnyToManyStorage {
        guard case .toMany(let toMany) = properties[slot] else { preconditionFailure("slot \(slot) is not a to-many") }
        return toMany
    }

    /// Calls `body` with each attribute storage (no array is built: this runs per object per save).
    func forEachAttribute(_ body: (any AnyAttributeStorage) -> Void) {
        for property in properties { if case .attribute(let attribute) = property { body(attribute) } }
    }

    func forEachToOne(_ body: (any AnyToOneStorage) -> Void) {
        for property in properties { if case .toOne(let toOne) = property { body(toOne) } }
    }

    func forEachToMany(_ body: (any AnyToManyStorage) -> Void) {
        for property in properties { if case .toMany(let toMany) = property { body(toMany) } }
    }
}

/// A failed validation rule, thrown from ``ManagedObject/validateForSave()``.
public struct ValidationFailure: Error, Sendable, Equatable {
    public var rule: String
    public init(_ rule: String) { self.rule = rule }
}

/// One property wrapper of an object, by kind.
enum PropertyStorage {
    case attribute(any AnyAttributeStorage)
    case toOne(any AnyToOneStorage)
    case toMany(any AnyToManyStorage)

    var object: AnyObject {
        switch self {
        case .attribute(let storage): storage
        case .toOne(let storage): storage
        case .toMany(let storage): storage
        }
    }
}
