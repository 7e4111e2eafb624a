/// The entities a store holds, and the model's version.
///
/// Creating a model checks every declaration and reports every problem at once.
/// Bump `version` whenever the entities change; opening a store written by an older version
/// migrates it (see ``PersistentContainer``).
///
/// ```swift
/// let model = try ManagedObjectModel(version: 1, entities: [Photo.self, Photographer.self])
/// ```
public struct ManagedObjectModel: Sendable {
    public let version: Int
    public let entities: [EntityDescription]
    /// The declared entities, then the hidden entity of each many-to-many pair's join table: every
    /// table the store holds (schema, migration, verification).
    let storedEntities: [EntityDescription]

    public init(version: Int, entities: [ManagedObject.Type]) throws(GraphStoreError) {
        self.version = version
        self.entities = entities.map { EntityDescription.of($0) }
        let problems = ModelValidator(entities: self.entities).problems()
        if !problems.isEmpty { throw .invalidModel(problems) }
        storedEntities = self.entities + Self.joinEntities(of: self.entities)
    }

    /// Each join table once (both sides of a pair describe the same one).
    private static func joinEntities(of entities: [EntityDescription]) -> [EntityDescription] {
        var joins: [EntityDescription] = []
        for entity in entities {
            for relationship in entity.manyToManyRelationships {
                guard let join = JoinTable.of(relationship, in: entity)?.entity, !joins.contains(where: { $0 === join }) else { continue }
                joins.append(join)
            }
        }
        return joins
    }

    public func entity(named name: String) -> EntityDescription? { entities.first { $0.name == name } }

    /// A declared entity or a join table's hidden one: what a store query may name.
    func storedEntity(named name: String) -> EntityDescription? { storedEntities.first { $0.name == name } }

    func entity(for type: ManagedObject.Type) -> EntityDescription? {
        entities.first { $0.objectType == type }
    }

    /// The wrapper properties `Mirror` finds in the entities that GraphStore's own field reading
    /// does not, as `Entity.property`: empty unless a Swift release changed the runtime's field
    /// metadata, which GraphStore reads through a private API (see <doc:DifferencesFromCoreData>).
    /// Call it in a test after a toolchain upgrade; creating a model does not, to keep starts fast.
    public func propertiesMissedByReflection() -> [String] {
        entities.flatMap { entity in FieldLayout.unreflectedWrappers(of: entity.objectType).map { "\(entity.name).\($0)" } }
    }
}

/// Checks a model's declarations (argument-parser's `Validators/` idea): every problem, one list.
struct ModelValidator {
    let entities: [EntityDescription]

    func problems() -> [String] {
        var problems: [String] = []
        var seen = Set<String>()
        for entity in entities {
            if !seen.insert(entity.name).inserted { problems.append("entity \(entity.name) is declared twice") }
            problems += reflectionProblems(entity) + columnProblems(entity) + relationshipProblems(entity) + joinTableProblems(entity)
            if entity.unresolvedConstraintCount > 0 {
                problems.append("\(entity.name): a composite unique constraint or index names a key path that is not a stored attribute (or, for an index, a to-one) of \(entity.name)")
            }
        }
        return problems + joinTableNameProblems() + renameProblems()
    }

    private func reflectionProblems(_ entity: EntityDescription) -> [String] {
        let missed = FieldLayout.of(entity.objectType).optionalWrappers
        guard !missed.isEmpty else { return [] }
        return ["\(entity.name): GraphStore cannot see the properties \(missed.joined(separator: ", ")) "
                + "(an optional wrapper: declare it with @Attribute, @ToOne or @ToMany)"]
    }

    private func columnProblems(_ entity: EntityDescription) -> [String] {
        let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
        var problems = names.filter { $0 == "id" }.map { _ in "\(entity.name): \"id\" is reserved for the row id" }
        for name in Set(names) where names.filter({ $0 == name }).count > 1 {
            problems.append("\(entity.name): property name \(name) is used twice")
        }
        for attribute in entity.attributes where attribute.isTransient && (attribute.isUnique || attribute.isIndexed) {
            problems.append("\(entity.name).\(attribute.name): a transient attribute cannot be unique or indexed")
        }
        return problems
    }

    private func relationshipProblems(_ entity: EntityDescription) -> [String] {
        entity.relationships.compactMap { relationship in
            let label = "\(entity.name).\(relationship.name)"
            guard entities.contains(where: { $0.name == relationship.destinationName }) else {
                return "\(label): destination entity \(relationship.destinationName) is not in the model"
            }
            guard let inverseName = relationship.inverseName,
                let inverse = relationship.destinationEntity.relationship(named: inverseName)
            else {
                if relationship.isToMany && relationship.inverse != nil {
                    return "\(label): its inverse key path names no relationship of \(relationship.destinationName)"
                }
                let fix = "declare @ToMany(inverse: \\\(entity.name).$\(relationship.name)) on \(relationship.destinationName)"
                return relationship.isToMany
                    ? "\(label): no to-many on \(relationship.destinationName) names it as its inverse; \(fix) for a many-to-many, "
                        + "or name its to-one inverse here for a one-to-many"
                    : "\(label): no to-many on \(relationship.destinationName) names it as its inverse; \(fix)"
            }
            if relationship.destinationName == entity.name && inverseName == relationship.name {
                return "\(label): a relationship cannot be its own inverse; declare a second to-many as its inverse"
            }
            if !relationship.isToMany && !inverse.isToMany {
                return "\(label): one-to-one relationships are not supported; pair a to-one with a to-many"
            }
            if relationship.isManyToMany != inverse.isManyToMany {
                return "\(label): its inverse \(relationship.destinationName).\(inverseName) is not the other side of a many-to-many; "
                    + "declare both with @ToMany, one naming the other"
            }
            if inverse.destinationName != entity.name || inverse.inverseName != relationship.name {
                return "\(label): its inverse \(relationship.destinationName).\(inverseName) does not point back at it"
            }
            return nil
        }
    }

    /// Two pairs whose join tables would share a name (`A.b_c` and `A_b.c` both give `A_b_c`).
    private func joinTableNameProblems() -> [String] {
        var owners: [String: [String]] = [:]
        for entity in entities {
            for relationship in entity.relationships where relationship.inverse != nil {
                guard let join = JoinTable.of(relationship, in: entity) else { continue }
                owners[join.entity.name, default: []].append("\(entity.name).\(relationship.name)")
            }
        }
        return owners.filter { $0.value.count > 1 }.keys.sorted().map { name in
            "\(owners[name]!.joined(separator: " and ")) would share the join table \(name); rename one of them"
        }
    }

    /// A join table's name must not be an entity's (both would be tables of the store).
    private func joinTableProblems(_ entity: EntityDescription) -> [String] {
        entity.relationships.compactMap { relationship in
            guard relationship.inverse != nil, let join = JoinTable.of(relationship, in: entity),
                entities.contains(where: { $0.name == join.entity.name })
            else { return nil }
            return "\(entity.name).\(relationship.name): its join table \(join.entity.name) has the name of an entity"
        }
    }
}
