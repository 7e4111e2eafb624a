/// Options for an ``Attribute`` declaration.
public enum AttributeOption: Sendable, Hashable {
    /// A single-attribute unique constraint, checked at save and resolved by the context's merge policy.
    case unique
    /// An index on the column, for attributes used in predicates or sorts.
    case indexed
    /// An index, as `.indexed`, that an import session beginning on an empty table builds once at
    /// its end instead of row by row (see <doc:Importing>): for a column only reads use, a sort
    /// key say, whose index would make a first import of random keys several times dearer. The
    /// session's own lookups go without it.
    case indexedAfterImport
    /// Kept in memory only: never stored, never part of change tracking.
    case transient
    /// Persistent history keeps its value before and after each update (see <doc:PersistentHistory>).
    /// Not part of the schema: adding or removing it needs no migration.
    case tracked
    /// Persistent history keeps its value in a delete's tombstone (Core Data's
    /// `preservesValueInHistoryOnDeletion`). Not part of the schema either.
    case preservedOnDeletion
    /// The attribute (or to-one) was called `from` in an earlier model version (Core Data's
    /// `renamingIdentifier`): a migration renames its column, keeping the values (see <doc:Migration>).
    case renamed(from: String)

    /// The name a `.renamed(from:)` among `options` gives, if any.
    static func renamedFrom(in options: Set<AttributeOption>) -> String? {
        for case .renamed(let name) in options { return name }
        return nil
    }
}

/// A stored (or transient) property of a ``ManagedObject``.
///
/// ```swift
/// final class Photo: ManagedObject {
///     @Attribute(.unique) var unique = ""
///     @Attribute var title = ""
///     @Attribute var uploaded: Date? = nil
/// }
/// ```
/// The column takes the property's name. `$title` is the attribute itself, used in predicates
/// and sorts (`\Photo.$title == "x"`), so no call site names an attribute by string.
///
/// > Important: Declare it only in ``ManagedObject`` subclasses: the object finds its wrappers
/// > when it is created and binds them to itself, which is how changes reach its context.
@propertyWrapper
public final class Attribute<Value: AttributeValue>: AnyAttributeStorage {
    let options: [AttributeOption]
    /// Checked on every assignment, so kept as a flag rather than looked up in `options`.
    let isTransient: Bool
    let defaultValue: Value
    // `@exclusivity(unchecked)`: these are read and written for every attribute of every object a
    // save touches, and the runtime's dynamic exclusivity check on a class property cost about as
    // much as the access itself (4% of an import). Each access is a plain load or store; none is
    // ever passed inout across a call that could reach the same attribute.
    @exclusivity(unchecked) var value: Value
    /// The value as last read from or written to the store; `nil` for an object never saved.
    @exclusivity(unchecked) var committed: StoredValue?
    /// Whether the value was assigned since the object was inserted or last saved
    /// (objectTrump merges take only assigned values).
    @exclusivity(unchecked) var isAssigned = false
    /// The object this attribute belongs to, bound when the object is created. Unowned: a weak
    /// reference would put every retain of the object on the runtime's slow path.
    @exclusivity(unchecked) unowned(safe) var owner: ManagedObject?

    public init(wrappedValue: Value, _ options: AttributeOption...) {
        self.options = options
        self.isTransient = options.contains(.transient)
        self.defaultValue = wrappedValue
        self.value = wrappedValue
    }

    /// The value. Setting it marks the owning object changed (plain stored access, no key paths:
    /// this runs for every property of every imported object).
    public var wrappedValue: Value {
        get { value }
        set {
            value = newValue
            guard !isTransient else { return }
            isAssigned = true
            owner?.didChangeProperty()
        }
    }

    /// The attribute itself, for predicates, sorts and constraints.
    public var projectedValue: Attribute<Value> { self }

    // MARK: - AnyAttributeStorage

    var storedValue: StoredValue { value.storedValue }
    static var valueType: any AttributeValue.Type { Value.self }
    var declaredOptions: Set<AttributeOption> { Set(options) }
    var defaultStoredValue: StoredValue { defaultValue.storedValue }

    func load(_ stored: StoredValue) -> Bool {
        guard Value.decode(stored, into: &value) else { return false }
        committed = stored
        isAssigned = false
        return true
    }

    func assign(_ stored: StoredValue) -> Bool {
        guard Value.decode(stored, into: &value) else { return false }
        isAssigned = true
        return true
    }

    func clearAssignment() { isAssigned = false }

    func bind(to owner: ManagedObject) { self.owner = owner }

    func commit() {
        committed = value.storedValue
        isAssigned = false
    }

    func rebase(onto stored: StoredValue) { committed = stored }

    func revert() {
        if let committed, let decoded = Value(storedValue: committed) { value = decoded }
        isAssigned = false
    }
}

/// The type-erased face of ``Attribute`` that the context and store work with.
protocol AnyAttributeStorage: AnyObject {
    static var valueType: any AttributeValue.Type { get }
    var declaredOptions: Set<AttributeOption> { get }
    var defaultStoredValue: StoredValue { get }
    var storedValue: StoredValue { get }
    var committed: StoredValue? { get }
    var isAssigned: Bool { get }
    /// Sets the value from the store and marks it committed; `false` when the type is wrong.
    func load(_ stored: StoredValue) -> Bool
    /// Sets the value as if the caller had assigned it (merges); `false` when the type is wrong.
    func assign(_ stored: StoredValue) -> Bool
    func clearAssignment()
    func bind(to owner: ManagedObject)
    func commit()
    /// Keeps the value (and whether it was assigned) but takes `stored` as the value last read:
    /// a refresh that merges changes.
    func rebase(onto stored: StoredValue)
    func revert()
}
