/// The store-independent tree a ``FetchPredicate`` builds; each store translates it (SQLite: to SQL).
indirect enum PredicateNode: Sendable {
    enum Comparison: String, Sendable { case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=" }
    enum StringMatch: Sendable { case equals, contains, beginsWith, endsWith }

    case compare(column: String, Comparison, StoredValue)
    case isNull(column: String, negated: Bool)
    case isIn(column: String, [StoredValue])
    case string(column: String, StringMatch, String, caseInsensitive: Bool)
    /// The to-one `column`'s destination (in `entity`) matches the nested predicate.
    case toOne(column: String, entity: String, PredicateNode)
    /// Some member of a to-many (rows of `entity` whose `inverseColumn` points here) matches the nested predicate.
    case anyMember(entity: String, inverseColumn: String, PredicateNode)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    case constant(Bool)
}

extension PredicateNode {
    /// Whether the predicate holds for an object whose every value is nil: what a `.whose` on an
    /// empty to-one means under Swift's logic (`photo.author?.name != "Ana"` is true without author).
    var matchesNil: Bool {
        switch self {
        case .compare(_, let comparison, _): comparison == .notEqual
        case .isNull(_, let negated): !negated
        case .isIn(_, let values): values.contains(.null)
        case .string: false
        case .toOne(_, _, let nested): nested.matchesNil
        case .anyMember: false
        case .and(let nodes): nodes.allSatisfy(\.matchesNil)
        case .or(let nodes): nodes.contains(where: \.matchesNil)
        case .not(let nested): !nested.matchesNil
        case .constant(let value): value
        }
    }
}

/// A sort key in store-independent form.
struct SortNode: Sendable {
    /// A sort by an attribute of a to-one's destination: the hop from the fetched entity.
    struct ToOneHop: Sendable {
        let entity: String
        let relationship: String
        let destination: String
    }

    let column: String
    let ascending: Bool
    let collation: FetchSort<ManagedObject>.Collation
    var hop: ToOneHop? = nil
}
