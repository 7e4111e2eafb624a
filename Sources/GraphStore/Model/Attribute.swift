/// Options for an ``Attribute`` declaration.
public enum AttributeOption: Sendable, Hashable {
    /// A single-attribute unique constraint, checked at save and resolved by the context's merge policy.
    case unique
    /// An index on the column, for attributes used in predicates or sorts.
    case indexed
    /// Kept in memory only: never stored, never part of change tracking.
    case transient
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
@propertyWrapper
public final class Attribute<Value: AttributeValue>: AnyAttributeStorage {
    let options: Set<AttributeOption>
    let defaultValue: Value
    var value: Value
    /// The value as last read from or written to the store; `nil` for an object never saved.
    var committed: StoredValue?
    /// Whether the value was assigned since the object was inserted or last saved
    /// (objectTrump merges take only assigned values).
    var isAssigned = false

    public init(wrappedValue: Value, _ options: AttributeOption...) {
        self.options = Set(options)
        self.defaultValue = wrappedValue
        self.value = wrappedValue
    }

    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Attribute<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].value }
        set {
            let attribute = object[keyPath: storageKeyPath]
            attribute.value = newValue
            guard !attribute.options.contains(.transient) else { return }
            attribute.isAssigned = true
            object.didChangeProperty()
        }
    }

    @available(*, unavailable, message: "@Attribute is only available on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("@Attribute is only available on ManagedObject subclasses") }
        set { fatalError("@Attribute is only available on ManagedObject subclasses") }
    }

    /// The attribute itself, for predicates, sorts and constraints.
    public var projectedValue: Attribute<Value> { self }

    // MARK: - AnyAttributeStorage

    var storedValue: StoredValue { value.storedValue }
    static var valueType: any AttributeValue.Type { Value.self }
    var declaredOptions: Set<AttributeOption> { options }
    var defaultStoredValue: StoredValue { defaultValue.storedValue }

    func load(_ stored: StoredValue) -> Bool {
        guard let decoded = Value(storedValue: stored) else { return false }
        value = decoded
        committed = stored
        isAssigned = false
        return true
    }

    func assign(_ stored: StoredValue) -> Bool {
        guard let decoded = Value(storedValue: stored) else { return false }
        value = decoded
        isAssigned = true
        return true
    }

    func clearAssignment() { isAssigned = false }

    func commit() {
        committed = value.storedValue
        isAssigned = false
    }

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
    func commit()
    func revert()
}
