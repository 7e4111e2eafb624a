/// Stored values of the rows a ``ObjectContext/fetchColumns(_:_:)`` matched, column by column:
/// element `i` of every column describes the row `ids[i]`.
public struct FetchedColumns<Root: ManagedObject>: Sendable {
    /// The rows' object IDs, in fetch order.
    public let ids: [ObjectID]
    @usableFromInline let entityName: String
    @usableFromInline let names: [String]
    @usableFromInline let columns: [[StoredValue]]

    init(entityName: String, ids: [ObjectID], names: [String], columns: [[StoredValue]]) {
        self.entityName = entityName
        self.ids = ids
        self.names = names
        self.columns = columns
    }

    /// The values of an attribute that was fetched.
    /// - Throws: ``GraphStoreError/corruptValue(entity:attribute:rowID:)`` when a stored value has the wrong type.
    @inlinable
    public func values<Value: AttributeValue>(_ attribute: KeyPath<Root, Attribute<Value>>) throws -> [Value] {
        let index = position(of: attribute)
        return try columns[index].enumerated().map { row, stored in
            guard let value = Value(storedValue: stored) else { throw corrupt(column: index, row: row) }
            return value
        }
    }

    /// The destinations of a to-one relationship that was fetched (nil where it is empty).
    @inlinable
    public func destinations<Destination>(_ relationship: KeyPath<Root, ToOne<Destination>>) throws -> [ObjectID?] {
        let index = position(of: relationship)
        let destination = Destination.cachedEntityName
        return try columns[index].enumerated().map { row, stored in
            switch stored {
            case .null: return nil
            case .integer(let rowID): return .permanent(destination, rowID)
            default: throw corrupt(column: index, row: row)
            }
        }
    }

    @usableFromInline
    func position(of keyPath: AnyKeyPath) -> Int {
        guard let name = EntityDescription.of(Root.self).columnName(for: keyPath), let index = names.firstIndex(of: name) else {
            preconditionFailure("\(keyPath) was not among the fetched properties of \(entityName)")
        }
        return index
    }

    @usableFromInline
    func corrupt(column: Int, row: Int) -> GraphStoreError {
        .corruptValue(entity: entityName, attribute: names[column], rowID: ids[row].rowID ?? 0)
    }
}
