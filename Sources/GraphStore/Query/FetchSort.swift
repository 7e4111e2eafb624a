/// One sort key of a fetch: an attribute, a direction, and how to compare.
public struct FetchSort<Root: ManagedObject>: Sendable {
    /// How values compare.
    public enum Collation: Sendable {
        /// Byte order (SQLite's BINARY).
        case binary
        /// Unicode case-insensitive.
        case caseInsensitive
        /// Digit strings by numeric value ("9" before "10"), by length first, then bytes.
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

extension FetchSort.Collation {
    var erased: FetchSort<ManagedObject>.Collation {
        switch self {
        case .binary: .binary
        case .caseInsensitive: .caseInsensitive
        case .numericText: .numericText
        }
    }
}
