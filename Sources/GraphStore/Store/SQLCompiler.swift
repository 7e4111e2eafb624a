/// Turns predicate and sort trees into SQL text plus bound arguments.
struct SQLCompiler {
    private(set) var arguments: [StoredValue] = []
    /// Tells which destinations a `.whose` can name as one row (see `toOneMatch`).
    let model: ManagedObjectModel?
    let dialect: SQLDialect

    init(model: ManagedObjectModel? = nil, dialect: SQLDialect = .sqlite) {
        self.model = model
        self.dialect = dialect
    }

    mutating func whereClause(_ node: PredicateNode) -> String {
        switch node {
        case .compare(let column, let comparison, let value):
            // `!=` is null-safe (`IS NOT`): nil differs from every value, as in Swift.
            let op = comparison == .notEqual ? dialect.nullSafeNotEqual : comparison.rawValue
            return "\(SQL.quote(column)) \(op) \(bind(value))"
        case .isNull(let column, let negated):
            return "\(SQL.quote(column)) IS \(negated ? "NOT " : "")NULL"
        case .isIn(let column, let values) where values.contains(.null):
            // `IN (NULL, ...)` is never true: nil is matched by its own test, as Swift's `contains`.
            let others = values.filter { $0 != .null }
            let nullTest = "\(SQL.quote(column)) IS NULL"
            return others.isEmpty ? nullTest : "(\(nullTest) OR \(whereClause(.isIn(column: column, others))))"
        case .isIn(let column, let values):
            guard let last = values.last else { return dialect.isFalse }
            if dialect == .postgres {
                // One array value however long the list: a PostgreSQL statement binds at most 65,535.
                // Joined as a set, not `= ANY(array)`: a prepared statement's array is no constant,
                // so `= ANY` compared every row with every element (24,000 ids: 25 s, issue 24).
                let (type, literal) = PostgresSQL.array(values)
                arguments.append(.text(literal))
                return "\(SQL.quote(column)) IN (SELECT unnest(CAST(? AS \(type))))"
            }
            // Padded to a bucket size with the last value: lists of 300 and 310 values share one
            // compiled statement. Bare `?` numbers itself after the highest placeholder so far,
            // which is the next argument.
            let padded = SQL.bucket(values.count)
            arguments += values
            arguments += repeatElement(last, count: padded - values.count)
            return "\(SQL.quote(column)) IN (\(SQL.placeholders(padded)))"
        case .string(let column, let match, let text, let caseInsensitive):
            return stringMatch(SQL.quote(column), match, text, caseInsensitive: caseInsensitive)
        case .toOne(let column, let entity, let nested):
            let match = toOneMatch(column, entity, nested)
            // Without a destination every value of it is nil, which some predicates match (`!=`, `isNil`).
            return nested.matchesNil ? "(\(SQL.quote(column)) IS NULL OR \(match))" : match
        case .anyMember(let entity, let inverseColumn, let nested):
            return "\"id\" IN (SELECT \(SQL.quote(inverseColumn)) FROM \(SQL.quote(entity)) WHERE \(whereClause(nested)))"
        case .and(let nodes):
            return "(" + nodes.map { whereClause($0) }.joined(separator: " AND ") + ")"
        case .or(let nodes):
            return "(" + nodes.map { whereClause($0) }.joined(separator: " OR ") + ")"
        case .not(let nested):
            // Unknown (NULL, from a nil attribute or to-one, or a NULL in an IN subquery) counts as
            // false before negating, so `!p` matches exactly the rows `p` does not: two-valued logic.
            return "NOT coalesce(\(whereClause(nested)), \(dialect.isFalse))"
        case .constant(let value):
            return value ? dialect.isTrue : dialect.isFalse
        }
    }

    /// `column IN (SELECT id ...)`; when the nested predicate is `==` on a unique attribute it
    /// names at most one row, and `column = (SELECT id ...)` lets SQLite walk an index that starts
    /// with `column` in order (an `IN` list makes it sort every match again), such as a composite
    /// index on (foreign key, sort attribute).
    private mutating func toOneMatch(_ column: String, _ entity: String, _ nested: PredicateNode) -> String {
        let subquery = "SELECT \"id\" FROM \(SQL.quote(entity)) WHERE \(whereClause(nested))"
        guard case .compare(let key, .equal, let value) = nested, value != .null,
            model?.entity(named: entity)?.uniqueConstraints.contains([key]) == true
        else { return "\(SQL.quote(column)) IN (\(subquery))" }
        return "\(SQL.quote(column)) = (\(subquery))"
    }

    static func orderBy(_ sorts: [SortNode], dialect: SQLDialect = .sqlite) -> String {
        let keys = sorts.flatMap { sort -> [String] in
            let column = sortKey(sort)
            let keys = switch sort.collation {
            case .binary: [column]
            case .caseInsensitive: ["\(FoldFunction.name)(\(column))", column]
            case .numericText: [dialect.numericText(column), column]
            }
            return keys.map { dialect.ordered($0, ascending: sort.ascending) }
        }
        return " ORDER BY " + (keys + ["\"id\" ASC"]).joined(separator: ", ")
    }

    /// The sorted value: a column, or the destination's column read through a to-one (NULL
    /// without a destination, which sorts first, as a nil attribute does).
    private static func sortKey(_ sort: SortNode) -> String {
        guard let hop = sort.hop else { return SQL.quote(sort.column) }
        return "(SELECT \(SQL.quote(sort.column)) FROM \(SQL.quote(hop.destination)) WHERE \"id\" = \(SQL.quote(hop.entity)).\(SQL.quote(hop.relationship)))"
    }

    private mutating func stringMatch(_ column: String, _ match: PredicateNode.StringMatch, _ text: String, caseInsensitive: Bool) -> String {
        if caseInsensitive, match == .contains, dialect == .sqlite {
            return "\(FoldContainsFunction.name)(\(column), \(bind(.text(text))))"
        }
        let subject = caseInsensitive ? "\(FoldFunction.name)(\(column))" : column
        let needle = caseInsensitive ? "\(FoldFunction.name)(\(bind(.text(text))))" : bind(.text(text))
        switch match {
        case .equals: return "\(subject) = \(needle)"
        case .contains: return dialect.contains(subject, needle)
        case .beginsWith: return "substr(\(subject), 1, length(\(needle))) = \(needle)"
        case .endsWith: return dialect.endsWith(subject, needle)
        }
    }

    /// Records `value` as an argument; returns its numbered placeholder (reusable within the statement).
    private mutating func bind(_ value: StoredValue) -> String {
        arguments.append(value)
        return "?\(arguments.count)"
    }
}
