/// A typed condition on an entity's attributes and relationships, translated to SQL by the store.
///
/// Build it from projected key paths, never from strings:
/// ```swift
/// let byName: FetchPredicate<Photo> = .whose(\.$whoTook, \.$name == "Ana Lima")
/// let recent: FetchPredicate<Photo> = \.$uploaded > cutoff && .contains(\.$title, "bridge", caseInsensitive: true)
/// let prolific: FetchPredicate<Photographer> = .any(\.$photos, \.$title == "Sunset")
/// ```
public struct FetchPredicate<Root: ManagedObject>: Sendable {
    let node: PredicateNode

    init(_ node: PredicateNode) { self.node = node }

    /// Matches every object.
    public static var all: FetchPredicate { FetchPredicate(.constant(true)) }

    /// The attribute's value is one of `values` (a nil among them matches a nil value).
    public static func isIn<V: AttributeValue>(_ attribute: KeyPath<Root, Attribute<V>>, _ values: [V]) -> FetchPredicate {
        FetchPredicate(.isIn(column: column(attribute), values.map { $0.storedValue }))
    }

    /// The attribute equals `text`; `caseInsensitive` compares full Unicode case foldings ("STRASSE"
    /// equals "straße"; see the README), as the other text matches do.
    public static func equals(_ attribute: KeyPath<Root, Attribute<String>>, _ text: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .equals, text, caseInsensitive: caseInsensitive))
    }

    /// The attribute contains `text` (case-insensitive uses full Unicode case folding).
    public static func contains(_ attribute: KeyPath<Root, Attribute<String>>, _ text: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .contains, text, caseInsensitive: caseInsensitive))
    }

    /// The attribute begins with `prefix`.
    public static func beginsWith(_ attribute: KeyPath<Root, Attribute<String>>, _ prefix: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .beginsWith, prefix, caseInsensitive: caseInsensitive))
    }

    /// The attribute ends with `suffix`.
    public static func endsWith(_ attribute: KeyPath<Root, Attribute<String>>, _ suffix: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .endsWith, suffix, caseInsensitive: caseInsensitive))
    }

    // Optional text: nil matches none of these (`title?.contains(x) == true`); `!` matches it.

    public static func equals(_ attribute: KeyPath<Root, Attribute<String?>>, _ text: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .equals, text, caseInsensitive: caseInsensitive))
    }

    public static func contains(_ attribute: KeyPath<Root, Attribute<String?>>, _ text: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .contains, text, caseInsensitive: caseInsensitive))
    }

    public static func beginsWith(_ attribute: KeyPath<Root, Attribute<String?>>, _ prefix: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .beginsWith, prefix, caseInsensitive: caseInsensitive))
    }

    public static func endsWith(_ attribute: KeyPath<Root, Attribute<String?>>, _ suffix: String, caseInsensitive: Bool = false) -> FetchPredicate {
        FetchPredicate(.string(column: column(attribute), .endsWith, suffix, caseInsensitive: caseInsensitive))
    }

    /// The to-one relationship's destination matches `predicate` ("photos whose photographer's name is X").
    public static func whose<Destination>(_ relationship: KeyPath<Root, ToOne<Destination>>, _ predicate: FetchPredicate<Destination>) -> FetchPredicate {
        FetchPredicate(.toOne(column: relationshipName(relationship), entity: Destination.entityName, predicate.node))
    }

    /// The to-one relationship is empty (`isNil: true`) or set.
    public static func isNil<Destination>(_ relationship: KeyPath<Root, ToOne<Destination>>, _ isNil: Bool = true) -> FetchPredicate {
        FetchPredicate(.isNull(column: relationshipName(relationship), negated: !isNil))
    }

    /// At least one member of the to-many relationship matches `predicate` ("photographers with ANY photo titled X").
    /// For a many-to-many, the members are found through the join table ("albums with ANY photo titled X").
    public static func any<Destination>(_ relationship: KeyPath<Root, ToMany<Destination>>, _ predicate: FetchPredicate<Destination>) -> FetchPredicate {
        let entity = EntityDescription.of(Root.self)
        let description = entity.relationship(named: relationshipName(relationship))
        if let description, let join = JoinTable.of(description, in: entity) {
            // id IN (SELECT owner FROM join WHERE member IN (SELECT id FROM Destination WHERE predicate))
            let member = PredicateNode.toOne(column: join.memberColumn, entity: Destination.entityName, predicate.node)
            return FetchPredicate(.anyMember(entity: join.entity.name, inverseColumn: join.ownerColumn, member))
        }
        let inverse = description?.inverseName ?? relationshipName(relationship)
        return FetchPredicate(.anyMember(entity: Destination.entityName, inverseColumn: inverse, predicate.node))
    }

    static func column(_ keyPath: AnyKeyPath) -> String {
        let entity = EntityDescription.of(Root.self)
        guard let slot = entity.slot(of: keyPath), let attribute = entity.attribute(atSlot: slot) else {
            preconditionFailure("\(keyPath) is not an attribute of \(entity.name); use the $-prefixed key path, e.g. \\.$title")
        }
        return attribute.name
    }

    static func relationshipName(_ keyPath: AnyKeyPath) -> String {
        let entity = EntityDescription.of(Root.self)
        guard let name = entity.relationshipName(for: keyPath) else {
            preconditionFailure("\(keyPath) is not a relationship of \(entity.name); use the $-prefixed key path, e.g. \\.$whoTook")
        }
        return name
    }
}

// MARK: - Logic

public func && <Root>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    FetchPredicate(.and([lhs.node, rhs.node]))
}

public func || <Root>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    FetchPredicate(.or([lhs.node, rhs.node]))
}

public prefix func ! <Root>(predicate: FetchPredicate<Root>) -> FetchPredicate<Root> {
    FetchPredicate(.not(predicate.node))
}

// MARK: - Comparisons

public func == <Root, V: AttributeValue>(lhs: KeyPath<Root, Attribute<V>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .equal, rhs)
}

public func != <Root, V: AttributeValue>(lhs: KeyPath<Root, Attribute<V>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .notEqual, rhs)
}

public func < <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .less, rhs)
}

public func <= <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .lessOrEqual, rhs)
}

public func > <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .greater, rhs)
}

public func >= <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .greaterOrEqual, rhs)
}

public func < <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V?>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .less, rhs)
}

public func > <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V?>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .greater, rhs)
}

public func <= <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V?>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .lessOrEqual, rhs)
}

public func >= <Root, V: AttributeValue & Comparable>(lhs: KeyPath<Root, Attribute<V?>>, rhs: V) -> FetchPredicate<Root> {
    compare(lhs, .greaterOrEqual, rhs)
}

private func compare<Root, V: AttributeValue>(
    _ attribute: AnyKeyPath, _ comparison: PredicateNode.Comparison, _ value: V, root: Root.Type = Root.self
) -> FetchPredicate<Root> {
    let column = FetchPredicate<Root>.column(attribute)
    if case .null = value.storedValue, comparison == .equal || comparison == .notEqual {
        return FetchPredicate(.isNull(column: column, negated: comparison == .notEqual))
    }
    return FetchPredicate(.compare(column: column, comparison, value.storedValue))
}
