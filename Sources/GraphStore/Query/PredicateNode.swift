/// The store-independent tree a ``FetchPredicate`` builds; each store translates it (SQLite: to SQL).
indirect enum PredicateNode: Sendable {
    enum Comparison: String, Sendable { case equal = "=", notEqual = "<>", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=" }
    enum StringMatch: Sendable { case contains, beginsWith, endsWith }

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

/// A sort key in store-independent form.
struct SortNode: Sendable {
    let column: String
    let ascending: Bool
    let collation: FetchSort<ManagedObject>.Collation
}
