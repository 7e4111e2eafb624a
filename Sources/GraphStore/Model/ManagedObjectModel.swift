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

    public init(version: Int, entities: [ManagedObject.Type]) throws(GraphStoreError) {
        self.version = version
        self.entities = entities.map { EntityDescription.of($0) }
        let problems = ModelValidator(entities: self.entities).problems()
        if !problems.isEmpty { throw .invalidModel(problems) }
    }

    public func entity(named name: String) -> EntityDescription? { entities.first { $0.name == name } }

    func entity(for type: ManagedObject.Type) -> EntityDescription? {
        entities.first { $0.objectType == type }
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
            problems += reflectionProblems(entity) + columnProblems(entity) + relationshipProblems(entity)
            if entity.unresolvedConstraintCount > 0 {
                problems.append("\(entity.name): a composite unique constraint or index names a key path that is not a stored attribute (or, for an index, a to-one) of \(entity.name)")
            }
        }
        return problems
    }

    private func reflectionProblems(_ entity: EntityDescription) -> [String] {
        let missed = FieldLayout.unreflectedWrappers(of: entity.objectType)
        guard !missed.isEmpty else { return [] }
        return ["\(entity.name): GraphStore cannot see the properties \(missed.joined(separator: ", ")) "
                + "(an optional wrapper, or a Swift runtime whose field reflection changed: see the GraphStore README)"]
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
                return relationship.isToMany
                    ? "\(label): its inverse key path names no relationship of \(relationship.destinationName)"
                    : "\(label): no to-many on \(relationship.destinationName) names it as its inverse; declare @ToMany(inverse: \\\(entity.name).$\(relationship.name))"
            }
            if inverse.isToMany == relationship.isToMany {
                return "\(label): \(relationship.isToMany ? "many-to-many" : "one-to-one") relationships are not supported; pair a to-one with a to-many"
            }
            if inverse.destinationName != entity.name || inverse.inverseName != relationship.name {
                return "\(label): its inverse \(relationship.destinationName).\(inverseName) does not point back at it"
            }
            return nil
        }
    }
}
