/// Evaluates a fetch's predicate and sort on objects with unsaved changes, in memory, by the rules
/// ``SQLCompiler`` gives the store (SQLite's comparisons, three-valued logic with `!` two-valued,
/// ``FoldFunction`` for case-insensitive text): a fetch that includes pending changes must pick
/// and order these objects exactly as the store would once they are saved. A change to one set of
/// rules is a change to the other.
struct PendingMatcher {
    let context: ObjectContext

    /// Whether `object` matches `node`: true, false, or nil for SQL's unknown.
    func matches(_ node: PredicateNode, _ object: ManagedObject) -> Bool? {
        switch node {
        case .compare(let column, let comparison, let value):
            let own = Self.value(of: column, object)
            if comparison == .notEqual { return Self.order(own, value) != 0 }  // `IS NOT`: null-safe
            if own == .null { return nil }
            let order = Self.order(own, value)
            switch comparison {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        case .isNull(let column, let negated):
            return (Self.value(of: column, object) == .null) != negated
        case .isIn(let column, let values):
            let own = Self.value(of: column, object)
            // A nil among the values matches nil (`IS NULL OR ... IN`), as Swift's `contains`.
            if values.contains(.null) && own == .null { return true }
            let others = values.filter { $0 != .null }
            if others.isEmpty { return false }
            if own == .null { return nil }
            return others.contains { Self.order(own, $0) == 0 }
        case .string(let column, let match, let text, let caseInsensitive):
            guard case .text(let own) = Self.value(of: column, object) else { return nil }
            let subject = Array((caseInsensitive ? FoldFunction.fold(own) : own).utf8)
            let needle = Array((caseInsensitive ? FoldFunction.fold(text) : text).utf8)
            switch match {
            case .equals: return subject == needle
            case .contains: return needle.isEmpty || subject.indices.contains { subject[$0...].starts(with: needle) }
            case .beginsWith: return subject.starts(with: needle)
            case .endsWith: return subject.reversed().starts(with: needle.reversed())
            }
        case .toOne(let column, _, let nested):
            // Without a destination every value of it is nil, which some predicates match; with
            // one, `column IN (SELECT ...)` is true or false, never unknown.
            guard let relationship = object.entity.relationship(named: column),
                let destination = object.toOne(relationship.slot).anyDestination
            else { return nested.matchesNil ? true : nil }
            return matches(nested, destination) == true
        case .anyMember(let entity, let inverseColumn, let nested):
            // Through a join table, `nested` is `.toOne(memberColumn, ...)`: true for a join row whose member matches.
            if let relationship = Self.joinRelationship(of: object, entity, inverseColumn) {
                guard case .toOne(_, _, let memberPredicate) = nested else { return false }
                return object.toMany(relationship.slot).anyMembers.contains { !$0.isDeleted && matches(memberPredicate, $0) == true }
            }
            guard let relationship = object.entity.relationships.first(where: {
                $0.isToMany && $0.destinationName == entity && $0.inverseName == inverseColumn
            }) else { return false }
            return object.toMany(relationship.slot).anyMembers.contains { !$0.isDeleted && matches(nested, $0) == true }
        case .and(let nodes):
            let results = nodes.map { matches($0, object) }
            if results.contains(false) { return false }
            return results.contains(nil) ? nil : true
        case .or(let nodes):
            let results = nodes.map { matches($0, object) }
            if results.contains(true) { return true }
            return results.contains(nil) ? nil : false
        case .not(let nested):
            return !(matches(nested, object) ?? false)
        case .constant(let value):
            return value
        }
    }

    /// Whether `a` sorts before `b` under `sorts`, then by row (new objects after stored ones);
    /// nil when nothing tells them apart (two new objects with equal keys).
    func precedes(_ a: ManagedObject, _ b: ManagedObject, _ sorts: [SortNode]) -> Bool? {
        for sort in sorts {
            let (x, y) = (Self.sortValue(sort, a), Self.sortValue(sort, b))
            var order: Int
            switch sort.collation {
            case .binary: order = Self.order(x, y)
            case .caseInsensitive: order = Self.order(Self.folded(x), Self.folded(y))
            case .numericText: order = Self.numericOrder(x, y)
            }
            if order == 0 { order = Self.order(x, y) }
            if order != 0 { return sort.ascending ? order < 0 : order > 0 }
        }
        let (x, y) = (a.rowID ?? .max, b.rowID ?? .max)
        return x == y ? nil : x < y
    }

    /// A column's value as a save would write it: an attribute's, or a to-one's foreign key (a new
    /// destination, with no row yet, counts as set).
    static func value(of column: String, _ object: ManagedObject) -> StoredValue {
        if let attribute = object.entity.attribute(named: column) { return object.attribute(attribute.slot).storedValue }
        guard let relationship = object.entity.relationship(named: column) else { return .null }
        let toOne = object.toOne(relationship.slot)
        if let destination = toOne.loadedDestination { return .integer(destination.rowID ?? -1) }
        return toOne.rowID.map(StoredValue.integer) ?? .null
    }

    /// The many-to-many relationship of `object` whose join table is `entity`, with `column` holding its owners.
    private static func joinRelationship(of object: ManagedObject, _ entity: String, _ column: String) -> RelationshipDescription? {
        object.entity.relationships.first { relationship in
            guard let join = object.entity.joinTable(ofSlot: relationship.slot) else { return false }
            return join.entity.name == entity && join.ownerColumn == column
        }
    }

    /// SQLite's order of values: NULL, then numbers by value, then text by bytes, then blobs by bytes.
    static func order(_ x: StoredValue, _ y: StoredValue) -> Int {
        switch (x, y) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.integer(let a), .integer(let b)): return a < b ? -1 : (a == b ? 0 : 1)
        case (.text(let a), .text(let b)): return bytes(Array(a.utf8), Array(b.utf8))
        case (.blob(let a), .blob(let b)): return bytes(Array(a), Array(b))
        default:
            if let a = number(x), let b = number(y) { return a < b ? -1 : (a == b ? 0 : 1) }
            return rank(x) - rank(y)
        }
    }

    private static func bytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.lexicographicallyPrecedes(b) ? -1 : (a == b ? 0 : 1)
    }

    private static func number(_ value: StoredValue) -> Double? {
        switch value {
        case .integer(let n): Double(n)
        case .real(let n): n
        default: nil
        }
    }

    private static func rank(_ value: StoredValue) -> Int {
        switch value {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }

    private static func folded(_ value: StoredValue) -> StoredValue {
        if case .text(let text) = value { return .text(FoldFunction.fold(text)) }
        return value
    }

    /// The `numericText` collation's order for two texts (Finder's); SQLite's order otherwise.
    private static func numericOrder(_ x: StoredValue, _ y: StoredValue) -> Int {
        guard case .text(var a) = x, case .text(var b) = y else { return order(x, y) }
        return a.withUTF8 { a in b.withUTF8 { b in NumericTextCollation.compare(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b)) } }
    }

    /// The value a sort reads: the object's own column, or its to-one destination's (nil without one).
    private static func sortValue(_ sort: SortNode, _ object: ManagedObject) -> StoredValue {
        guard let hop = sort.hop else { return value(of: sort.column, object) }
        guard let relationship = object.entity.relationship(named: hop.relationship),
            let destination = object.toOne(relationship.slot).anyDestination
        else { return .null }
        return value(of: sort.column, destination)
    }
}
