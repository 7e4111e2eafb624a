#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What the store and contexts know about one ``ManagedObject`` subclass: its attributes,
/// relationships and constraints, read once from a prototype instance and cached.
public final class EntityDescription: Sendable {
    public let name: String
    let objectType: ManagedObject.Type
    public let attributes: [AttributeDescription]
    public let relationships: [RelationshipDescription]
    /// Every unique constraint, each a list of attribute names (single ones first, then composites).
    public let uniqueConstraints: [[String]]
    /// Plain indexes as column lists: indexed attributes, composite indexes, and each to-one's
    /// foreign key unless a composite index starts with it.
    public let indexes: [[String]]
    /// Those of ``indexes`` an import into an empty table builds at its end (``AttributeOption/indexedAfterImport``).
    let indexesAfterImport: [[String]]
    /// Composite constraints whose key paths name no attribute of this entity (reported by the model).
    let unresolvedConstraintCount: Int
    private let keyPathSlots = Mutex<[ImmutableKeyPath: Int]>([:])
    private let inverseSlots = Mutex<[Int: Int]>([:])

    /// Stored attributes (not transient), in declaration order: the table's columns after `id`.
    public let storedAttributes: [AttributeDescription]
    /// Their wrapper slots, in the same order: walking them copies no description per object.
    let storedAttributeSlots: [Int]
    public let toOneRelationships: [RelationshipDescription]
    /// Their wrapper slots, in the same order.
    let toOneSlots: [Int]
    /// The to-manys stored in join tables (empty for most entities: saves walk it for every changed object).
    let manyToManyRelationships: [RelationshipDescription]
    /// The stored columns after `id`: stored attributes, then to-one foreign keys (row value order).
    let columns: [String]
    /// The hidden entity of a many-to-many pair's join table (see ``JoinTable``), not a class of the model.
    let isJoin: Bool

    static func of(_ type: ManagedObject.Type) -> EntityDescription {
        let key = ObjectIdentifier(type)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let description = EntityDescription(type)
        return cache.withLock { cache in
            if let winner = cache[key] { return winner }
            cache[key] = description
            return description
        }
    }

    private static let cache = Mutex<[ObjectIdentifier: EntityDescription]>([:])

    private init(_ type: ManagedObject.Type) {
        let prototype = type.init()
        let layout = FieldLayout.of(type)
        name = type.entityName
        objectType = type
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        for (slot, field) in layout.fields.enumerated() {
            let wrapper = prototype.properties[slot].object
            switch field.kind {
            case .attribute:
                attributes.append(AttributeDescription(name: field.name, slot: slot, storage: wrapper as! any AnyAttributeStorage))
            case .toOne:
                let toOne = wrapper as! any AnyToOneStorage
                relationships.append(RelationshipDescription(
                    name: field.name, slot: slot, isToMany: false, owner: type.entityName,
                    destination: Swift.type(of: toOne).destinationType, inverse: nil, deleteRule: toOne.declaredDeleteRule,
                    deletesOwnerWhenEmpty: false, history: toOne.declaredHistoryOptions))
            case .toMany:
                let toMany = wrapper as! any AnyToManyStorage
                relationships.append(RelationshipDescription(
                    name: field.name, slot: slot, isToMany: true, owner: type.entityName,
                    destination: Swift.type(of: toMany).destinationType, inverse: toMany.declaredInverse.map(ImmutableKeyPath.init),
                    deleteRule: toMany.declaredDeleteRule, deletesOwnerWhenEmpty: toMany.declaredDeletesOwnerWhenEmpty,
                    isManyToMany: toMany.isManyToMany))
            }
        }
        self.attributes = attributes
        self.relationships = relationships
        storedAttributes = attributes.filter { !$0.isTransient }
        storedAttributeSlots = storedAttributes.map(\.slot)
        toOneRelationships = relationships.filter { !$0.isToMany }
        toOneSlots = toOneRelationships.map(\.slot)
        manyToManyRelationships = relationships.filter(\.isManyToMany)
        columns = storedAttributes.map(\.name) + toOneRelationships.map(\.name)
        let names = Self.names(of: type.compositeUniqueConstraints, in: prototype, attributes: attributes)
        uniqueConstraints = attributes.filter(\.isUnique).map { [$0.name] } + names.compactMap { $0 }
        let composites = type.compositeIndexes.map { keyPaths in
            let names = keyPaths.compactMap { keyPath in
                Self.slot(of: keyPath, in: prototype).flatMap { slot in
                    (attributes.first { $0.slot == slot && !$0.isTransient }?.name) ?? relationships.first { $0.slot == slot && !$0.isToMany }?.name
                }
            }
            return names.count == keyPaths.count && !names.isEmpty ? names : nil
        }
        let foreignKeys = relationships.filter { relationship in
            !relationship.isToMany && !composites.contains { $0?.first == relationship.name }
        }
        indexes = storedAttributes.filter(\.isIndexed).map { [$0.name] } + composites.compactMap { $0 } + foreignKeys.map { [$0.name] }
        indexesAfterImport = storedAttributes.filter(\.isIndexedAfterImport).map { [$0.name] }
        unresolvedConstraintCount = names.filter { $0 == nil }.count + composites.filter { $0 == nil }.count
        isJoin = false
    }

    /// A join table's entity: one foreign key column per side (`columns[0]` to `sides.0`), unique
    /// together, and indexed by the second alone (the unique index serves lookups by the first).
    init(joinNamed name: String, columns: [String], sides: (ManagedObject.Type, ManagedObject.Type)) {
        self.name = name
        objectType = ManagedObject.self
        attributes = []
        storedAttributes = []
        storedAttributeSlots = []
        relationships = zip(columns, [sides.0, sides.1]).enumerated().map { slot, column in
            RelationshipDescription(name: column.0, slot: slot, isToMany: false, owner: name, destination: column.1,
                                    inverse: nil, deleteRule: .noAction, deletesOwnerWhenEmpty: false)
        }
        toOneRelationships = relationships
        toOneSlots = relationships.map(\.slot)
        manyToManyRelationships = []
        self.columns = columns
        uniqueConstraints = [columns]
        indexes = [[columns[1]]]
        indexesAfterImport = []
        unresolvedConstraintCount = 0
        isJoin = true
    }

    private static func names(of constraints: [[AnyKeyPath]], in prototype: ManagedObject, attributes: [AttributeDescription]) -> [[String]?] {
        constraints.map { keyPaths in
            let names = keyPaths.compactMap { keyPath in
                slot(of: keyPath, in: prototype).flatMap { slot in attributes.first { $0.slot == slot }?.name }
            }
            return names.count == keyPaths.count && !names.isEmpty ? names : nil
        }
    }

    private static func slot(of keyPath: AnyKeyPath, in prototype: ManagedObject) -> Int? {
        guard let wrapper = prototype[keyPath: keyPath] as? AnyObject else { return nil }
        return prototype.properties.firstIndex { $0.object === wrapper }
    }

    /// The wrapper slot a projected key path (`\Photo.$title`) designates.
    func slot(of keyPath: AnyKeyPath) -> Int? {
        let key = ImmutableKeyPath(keyPath)
        if let slot = keyPathSlots.withLock({ $0[key] }) { return slot }
        guard let slot = Self.slot(of: keyPath, in: objectType.init()) else { return nil }
        keyPathSlots.withLock { $0[key] = slot }
        return slot
    }

    /// The slot of the inverse relationship (on the destination) of the relationship at `slot`.
    func inverseSlot(of slot: Int) -> Int? {
        if let cached = inverseSlots.withLock({ $0[slot] }) { return cached }
        guard let relationship = relationship(atSlot: slot), let name = relationship.inverseName,
            let inverse = relationship.destinationEntity.relationship(named: name)
        else { return nil }
        inverseSlots.withLock { $0[slot] = inverse.slot }
        return inverse.slot
    }

    func attribute(named name: String) -> AttributeDescription? { attributes.first { $0.name == name } }
    func attribute(atSlot slot: Int) -> AttributeDescription? { attributes.first { $0.slot == slot } }
    func relationship(atSlot slot: Int) -> RelationshipDescription? { relationships.first { $0.slot == slot } }
    func relationship(named name: String) -> RelationshipDescription? { relationships.first { $0.name == name } }

    /// The column a projected key path designates: a stored attribute's or a to-one relationship's.
    func columnName(for keyPath: AnyKeyPath) -> String? {
        guard let slot = slot(of: keyPath) else { return nil }
        if let attribute = attribute(atSlot: slot) { return attribute.isTransient ? nil : attribute.name }
        return relationship(atSlot: slot).flatMap { $0.isToMany ? nil : $0.name }
    }

    /// The name of the relationship an inverse key path (declared on another entity) designates.
    func relationshipName(for keyPath: AnyKeyPath) -> String? {
        slot(of: keyPath).flatMap { relationship(atSlot: $0)?.name }
    }
}

/// One relationship of an entity. A to-one is stored as a foreign key column named after it.
public struct RelationshipDescription: Sendable {
    public let name: String
    let slot: Int
    public let isToMany: Bool
    let owner: String
    let destination: ManagedObject.Type
    /// The key path to the inverse on the destination, on the side that names the pair: a one-to-many's
    /// to-many (naming its to-one), or one to-many of a many-to-many. Nil on the other side.
    let inverse: ImmutableKeyPath?
    public let deleteRule: DeleteRule
    /// For a to-many: the owner is deleted when a save leaves it without members.
    public let deletesOwnerWhenEmpty: Bool
    /// A to-many whose inverse is a to-many too: the pairs are stored in a join table (see the README).
    public let isManyToMany: Bool
    /// A to-one whose destination's unique key persistent history keeps before and after an update.
    public let isTracked: Bool
    /// A to-one whose destination's unique key goes into a delete's tombstone.
    public let isPreservedOnDeletion: Bool
    /// A to-one's name in an earlier model version (``AttributeOption/renamed(from:)``).
    public let renamedFrom: String?

    init(name: String, slot: Int, isToMany: Bool, owner: String, destination: ManagedObject.Type, inverse: ImmutableKeyPath?,
         deleteRule: DeleteRule, deletesOwnerWhenEmpty: Bool, isManyToMany: Bool = false, history: Set<AttributeOption> = []) {
        isTracked = history.contains(.tracked)
        isPreservedOnDeletion = history.contains(.preservedOnDeletion)
        renamedFrom = AttributeOption.renamedFrom(in: history)
        self.name = name
        self.slot = slot
        self.isToMany = isToMany
        self.owner = owner
        self.destination = destination
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.deletesOwnerWhenEmpty = deletesOwnerWhenEmpty
        self.isManyToMany = isManyToMany
    }

    public var destinationName: String { destination.cachedEntityName }
    var destinationEntity: EntityDescription { EntityDescription.of(destination) }

    /// The inverse relationship's name on the destination: the relationship its key path names, or
    /// else the destination's to-many that names this one. Nil when there is none.
    public var inverseName: String? {
        if let inverse { return destinationEntity.relationshipName(for: inverse.keyPath) }
        return destinationEntity.relationships.first { candidate in
            candidate.isToMany && candidate.destinationName == owner
                && candidate.inverse.flatMap { candidate.destinationEntity.relationshipName(for: $0.keyPath) } == name
        }?.name
    }
}

/// A key path as a cache key. Key paths are immutable objects, safe to share between threads,
/// but `AnyKeyPath` is not declared `Sendable`.
struct ImmutableKeyPath: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}
