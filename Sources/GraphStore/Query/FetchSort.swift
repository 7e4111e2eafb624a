/// One sort key of a fetch: an attribute, a direction, and how to compare.
public struct FetchSort<Root: ManagedObject>: Sendable {
    /// How values compare.
    public enum Collation: Sendable {
        /// Byte order (SQLite's BINARY).
        case binary
        /// Full Unicode case folding (as case-insensitive predicates), ties by bytes.
        case caseInsensitive
        /// As Finder and `localizedStandardCompare` (without a locale): runs of digits by value
        /// ("9" before "10", "1.5" before "2"), the rest case-insensitively, ties by bytes.
        case numericText
    }

    let node: SortNode

    public static func ascending<V: AttributeValue>(_ attribute: KeyPath<Root, Attribute<V>>, _ collation: Collation = .binary) -> FetchSort {
        FetchSort(node: SortNode(column: FetchPredicate<Root>.column(attribute), ascending: true, collation: collation.erased))
    }

    public static func descending<V: AttributeValue>(_ attribute: KeyPath<Root, Attribute<V>>, _ collation: Collation = .binary) -> FetchSort {
        FetchSort(node: SortNode(column: FetchPredicate<Root>.column(attribute), ascending: false, collation: collation.erased))
    }
}

extension FetchSort {
    /// Sorts by an attribute of a to-one's destination (`.ascending(\.$photographer, \.$name)`);
    /// objects without a destination sort as a nil value does (first when ascending).
    public static func ascending<Destination, V: AttributeValue>(
        _ relationship: KeyPath<Root, ToOne<Destination>>, _ attribute: KeyPath<Destination, Attribute<V>>, _ collation: Collation = .binary
    ) -> FetchSort {
        FetchSort(node: through(relationship, attribute, ascending: true, collation))
    }

    public static func descending<Destination, V: AttributeValue>(
        _ relationship: KeyPath<Root, ToOne<Destination>>, _ attribute: KeyPath<Destination, Attribute<V>>, _ collation: Collation = .binary
    ) -> FetchSort {
        FetchSort(node: through(relationship, attribute, ascending: false, collation))
    }

    private static func through<Destination>(_ relationship: KeyPath<Root, ToOne<Destination>>, _ attribute: AnyKeyPath, ascending: Bool, _ collation: Collation) -> SortNode {
        let hop = SortNode.ToOneHop(entity: Root.entityName, relationship: FetchPredicate<Root>.relationshipName(relationship),
                                    destination: Destination.entityName)
        return SortNode(column: FetchPredicate<Destination>.column(attribute), ascending: ascending, collation: collation.erased, hop: hop)
    }
}

extension FetchSort.Collation {
    var erased: FetchSort<ManagedObject>.Collation {
        switch self {
        case .binary: .binary
        case .caseInsensitive: .caseInsensitive
        case .numericText: .numericText
        }
    }
}
