/// One `attribute = value` for ``ObjectContext/update(_:_:)``, typed by key path.
public struct AttributeAssignment<Root: ManagedObject>: Sendable {
    let column: String
    let value: StoredValue

    /// Sets a stored attribute (`\.$ownerID`) to `value`.
    public static func set<V: AttributeValue>(_ attribute: KeyPath<Root, Attribute<V>>, to value: V) -> AttributeAssignment {
        let entity = EntityDescription.of(Root.self)
        guard let slot = entity.slot(of: attribute), let description = entity.attribute(atSlot: slot), !description.isTransient else {
            preconditionFailure("\(attribute) is not a stored attribute of \(entity.name); use the $-prefixed key path, e.g. \\.$title")
        }
        return AttributeAssignment(column: description.name, value: value.storedValue)
    }
}

/// Attribute values for a stored row the context does not hold, written by the next save.
struct RowUpdate {
    let id: ObjectID
    let columns: [String]
    let values: [StoredValue]
}
