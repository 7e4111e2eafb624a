/// Executes one save inside a store transaction: deletes, unique-constraint resolution, inserts, updates.
///
/// Conflicts are found in batches (one `IN` query per entity and constraint for all new objects),
/// never one query per object.
final class SavePlanner {
    private let context: ObjectContext
    private let policy: MergePolicy
    private var conflicts: [ConstraintConflict] = []
    /// A discarded duplicate → the object that survives it (among new objects).
    private var survivorOf: [ObjectIdentifier: ManagedObject] = [:]
    /// A surviving new object → the duplicates merged into it, in insertion order (itself included).
    private var contributors: [ObjectIdentifier: [ManagedObject]] = [:]
    /// A surviving new object → the stored row it takes over (no instance registered for it).
    private var adoptedRows: [ObjectIdentifier: StoredRow] = [:]
    /// A surviving new object → the registered instance of the stored row it folds into.
    private var foldTargets: [ObjectIdentifier: ManagedObject] = [:]
    private var newRowIDs: [ObjectIdentifier: Int64] = [:]
    /// Rows a to-one foreign key stopped pointing at, per "entity.relationship": owners that may be empty now.
    private var vacated: [String: Set<Int64>] = [:]
    private var outcome = SaveOutcome()

    init(context: ObjectContext) {
        self.context = context
        self.policy = context.mergePolicy
    }

    func execute(_ writer: any StoreWriter) throws -> SaveOutcome {
        try deleteRows(writer)
        let inserted = context.insertedObjects
        try resolveConflicts(among: inserted, writer)
        if !conflicts.isEmpty { throw GraphStoreError.constraintConflicts(conflicts) }
        try insertRows(inserted.filter { isFresh($0) }, writer)
        try writeMerged(inserted.filter { survivorOf[ObjectIdentifier($0)] == nil && !isFresh($0) }, writer)
        try updateRows(context.updatedObjects.filter { $0.state == .updated }, writer)
        try deleteEmptiedOwners(writer)
        for (discarded, _) in outcome.folds { outcome.replacements[ObjectIdentifier(discarded)] = finalObject(discarded) }
        return outcome
    }

    // MARK: - Deletes

    private func deleteRows(_ writer: any StoreWriter) throws {
        for object in context.deletedObjects {
            guard let rowID = object.rowID else { continue }
            try writer.delete(from: object.entity, rowID: rowID)
            outcome.changes.deleted[object.entity.name, default: []].insert(object.objectID)
            for relationship in object.entity.toOneRelationships {
                vacate(object.entity, relationship.name, object.toOne(relationship.slot).committedRowID)
            }
        }
    }

    // MARK: - Conflicts

    private func resolveConflicts(among inserted: [ManagedObject], _ writer: any StoreWriter) throws {
        let byEntity = Dictionary(grouping: inserted) { $0.entity.name }
        for entity in context.container.model.entities where !entity.uniqueConstraints.isEmpty {
            guard let objects = byEntity[entity.name] else { continue }
            for constraint in entity.uniqueConstraints {
                let survivors = resolveDuplicates(objects.filter { survivorOf[ObjectIdentifier($0)] == nil }, entity, constraint)
                try resolveAgainstStore(survivors, entity, constraint, writer)
            }
        }
    }

    /// Groups new objects by constrained values; each group keeps one survivor (see ``MergePolicy``).
    private func resolveDuplicates(_ objects: [ManagedObject], _ entity: EntityDescription, _ constraint: [String]) -> [ManagedObject] {
        var groups: [[StoredValue]: [ManagedObject]] = [:]
        var order: [[StoredValue]] = []
        for object in objects {
            let key = self.key(of: object, entity, constraint)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(object)
        }
        return order.map { key in
            let group = groups[key]!
            guard group.count > 1 else { return group[0] }
            switch policy {
            case .error:
                conflicts.append(ConstraintConflict(entity: entity.name, attributes: constraint, values: key.map(Self.text),
                                                    objects: group.map(\.objectID), storedObject: nil))
                return group[0]
            case .objectTrump, .storeTrump:
                let survivor = policy == .objectTrump ? group.last! : group.first!
                let merged = group.flatMap { contributorsOf($0) }
                for object in group where object !== survivor {
                    survivorOf[ObjectIdentifier(object)] = survivor
                    contributors[ObjectIdentifier(object)] = nil
                    outcome.folds.append((object, survivor))
                }
                contributors[ObjectIdentifier(survivor)] = merged
                return survivor
            }
        }
    }

    private func resolveAgainstStore(_ survivors: [ManagedObject], _ entity: EntityDescription, _ constraint: [String], _ writer: any StoreWriter) throws {
        let pending = survivors.filter { isFresh($0) }
        guard !pending.isEmpty else { return }
        let keys = pending.map { key(of: $0, entity, constraint) }
        let indexes = constraint.map { name in entity.columns.firstIndex(of: name)! }
        let stored = try writer.rows(of: entity, columns: constraint, matching: Array(Set(keys)))
        let rowsByKey = Dictionary(stored.map { row in (indexes.map { row.values[$0] }, row) }, uniquingKeysWith: { first, _ in first })
        for (object, key) in zip(pending, keys) {
            guard let row = rowsByKey[key] else { continue }
            let id = ObjectID.permanent(entity.name, row.rowID)
            switch policy {
            case .error:
                conflicts.append(ConstraintConflict(entity: entity.name, attributes: constraint, values: key.map(Self.text),
                                                    objects: [object.objectID], storedObject: id))
            case .objectTrump, .storeTrump:
                if let registered = context.registered[id], registered !== object {
                    if registered.isDeleted { continue }
                    foldTargets[ObjectIdentifier(object)] = registered
                } else {
                    adoptedRows[ObjectIdentifier(object)] = row
                }
            }
        }
    }

    private func key(of object: ManagedObject, _ entity: EntityDescription, _ constraint: [String]) -> [StoredValue] {
        constraint.map { name in object.attribute(entity.attribute(named: name)!.slot).storedValue }
    }

    private func contributorsOf(_ object: ManagedObject) -> [ManagedObject] {
        contributors[ObjectIdentifier(object)] ?? [object]
    }

    private func isFresh(_ object: ManagedObject) -> Bool {
        let id = ObjectIdentifier(object)
        return survivorOf[id] == nil && adoptedRows[id] == nil && foldTargets[id] == nil
    }

    private static func text(_ value: StoredValue) -> String { value.text }

    // MARK: - Inserts

    private func insertRows(_ objects: [ManagedObject], _ writer: any StoreWriter) throws {
        var fixups: [(ManagedObject, [String])] = []
        for object in dependencyOrdered(objects) {
            let entity = object.entity
            let attributes = mergedAttributes(contributorsOf(object), base: nil, entity)
            let destinations = mergedDestinations(contributorsOf(object), base: nil, entity)
            let foreignKeys = destinations.map(foreignKey(of:))
            let rowID = try writer.insert(into: entity, values: attributes + foreignKeys.map { $0.map(StoredValue.integer) ?? .null })
            newRowIDs[ObjectIdentifier(object)] = rowID
            let unresolved = zip(entity.toOneRelationships, zip(destinations, foreignKeys)).filter { $0.1.1 == nil && !isEmpty($0.1.0) }
            if !unresolved.isEmpty { fixups.append((object, unresolved.map(\.0.name))) }
            outcome.saved.append(.init(object: object, rowID: rowID, attributes: attributes, destinations: destinations))
            outcome.changes.inserted[entity.name, default: []].insert(.permanent(entity.name, rowID))
        }
        for (object, columns) in fixups {
            let destinations = mergedDestinations(contributorsOf(object), base: nil, object.entity)
            let values = object.entity.toOneRelationships.enumerated().filter { columns.contains($0.element.name) }
                .map { foreignKey(of: destinations[$0.offset]).map(StoredValue.integer) ?? .null }
            try writer.update(object.entity, rowID: newRowIDs[ObjectIdentifier(object)]!, columns: columns, values: values)
        }
    }

    /// Entities whose rows others point at are inserted first, so most foreign keys are known at insert.
    private func dependencyOrdered(_ objects: [ManagedObject]) -> [ManagedObject] {
        var depth: [String: Int] = [:]
        func level(_ entity: EntityDescription, _ seen: Set<String>) -> Int {
            if let known = depth[entity.name] { return known }
            let deeper = entity.toOneRelationships.filter { !seen.contains($0.destinationName) }
                .map { level($0.destinationEntity, seen.union([entity.name])) + 1 }
            let result = deeper.max() ?? 0
            depth[entity.name] = result
            return result
        }
        return objects.enumerated().sorted { lhs, rhs in
            let (left, right) = (level(lhs.element.entity, []), level(rhs.element.entity, []))
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    // MARK: - Merged rows and updates

    /// Survivors that took over a stored row, or fold into the instance registered for it.
    private func writeMerged(_ objects: [ManagedObject], _ writer: any StoreWriter) throws {
        for object in objects {
            let entity = object.entity
            if let target = foldTargets[ObjectIdentifier(object)] {
                let base = currentValues(of: target)
                try writeMerge(into: target, rowID: target.rowID!, base: base, contributors: contributorsOf(object), writer)
                outcome.folds.append((object, target))
            } else if let row = adoptedRows[ObjectIdentifier(object)] {
                let base = (Array(row.values[..<entity.storedAttributes.count]),
                            row.values[entity.storedAttributes.count...].map { value -> SaveOutcome.Destination in
                                if case .integer(let id) = value { return .row(id) }
                                return .row(nil)
                            })
                try writeMerge(into: object, rowID: row.rowID, base: base, contributors: contributorsOf(object), writer, adopted: true)
            }
        }
    }

    private func writeMerge(
        into object: ManagedObject, rowID: Int64, base: ([StoredValue], [SaveOutcome.Destination]),
        contributors: [ManagedObject], _ writer: any StoreWriter, adopted: Bool = false
    ) throws {
        let entity = object.entity
        let attributes = mergedAttributes(contributors, base: base.0, entity)
        let destinations = mergedDestinations(contributors, base: base.1, entity)
        let oldRow = base.0 + base.1.map { foreignKey(of: $0).map(StoredValue.integer) ?? .null }
        let newRow = attributes + destinations.map { foreignKey(of: $0).map(StoredValue.integer) ?? .null }
        let changed = entity.columns.indices.filter { oldRow[$0] != newRow[$0] }
        for index in changed where index >= entity.storedAttributes.count {
            if case .integer(let old) = oldRow[index] { vacate(entity, entity.columns[index], old) }
        }
        try writer.update(entity, rowID: rowID, columns: changed.map { entity.columns[$0] }, values: changed.map { newRow[$0] })
        outcome.saved.append(.init(object: object, rowID: rowID, attributes: attributes, destinations: destinations, adopted: adopted))
        if !changed.isEmpty || object.state == .updated { outcome.changes.updated[entity.name, default: []].insert(.permanent(entity.name, rowID)) }
    }

    private func updateRows(_ objects: [ManagedObject], _ writer: any StoreWriter) throws {
        // Objects a merge already wrote (registered rows that duplicates folded into) are done.
        let written = Set(outcome.saved.map { ObjectIdentifier($0.object) })
        for object in objects where !written.contains(ObjectIdentifier(object)) {
            guard let rowID = object.rowID else { continue }
            let entity = object.entity
            var columns: [String] = []
            var values: [StoredValue] = []
            for attribute in entity.storedAttributes {
                let storage = object.attribute(attribute.slot)
                if storage.storedValue != storage.committed { columns.append(attribute.name); values.append(storage.storedValue) }
            }
            for relationship in entity.toOneRelationships where object.toOne(relationship.slot).isAssigned {
                let toOne = object.toOne(relationship.slot)
                let current = toOne.loadedDestination.flatMap { foreignKey(of: .object($0)) }
                if current != toOne.committedRowID {
                    columns.append(relationship.name)
                    values.append(current.map(StoredValue.integer) ?? .null)
                    vacate(entity, relationship.name, toOne.committedRowID)
                }
            }
            try writer.update(entity, rowID: rowID, columns: columns, values: values)
            outcome.saved.append(.init(object: object, rowID: rowID))
            if !columns.isEmpty { outcome.changes.updated[entity.name, default: []].insert(object.objectID) }
        }
    }

    // MARK: - Owners left empty

    private func vacate(_ entity: EntityDescription, _ relationship: String, _ rowID: Int64?) {
        guard let rowID else { return }
        vacated[entity.name + "." + relationship, default: []].insert(rowID)
    }

    /// Deletes owners whose `deletesOwnerWhenEmpty` to-many this save emptied (one query per relationship).
    private func deleteEmptiedOwners(_ writer: any StoreWriter) throws {
        for member in context.container.model.entities {
            for relationship in member.toOneRelationships {
                guard let candidates = vacated[member.name + "." + relationship.name],
                    let inverseName = relationship.inverseName,
                    relationship.destinationEntity.relationship(named: inverseName)?.deletesOwnerWhenEmpty == true
                else { continue }
                let owner = relationship.destinationEntity
                let empty = try writer.ownersWithoutMembers(owner: owner.name, candidates: Array(candidates), member: member.name, column: relationship.name)
                for rowID in empty {
                    try writer.delete(from: owner, rowID: rowID)
                    outcome.changes.deleted[owner.name, default: []].insert(.permanent(owner.name, rowID))
                    outcome.emptiedOwners.append(.permanent(owner.name, rowID))
                }
            }
        }
    }

    // MARK: - Merging values

    private func currentValues(of object: ManagedObject) -> ([StoredValue], [SaveOutcome.Destination]) {
        let entity = object.entity
        return (entity.storedAttributes.map { object.attribute($0.slot).storedValue },
                entity.toOneRelationships.map { relationship in
                    object.toOne(relationship.slot).anyDestination.map { .object($0) } ?? .row(nil)
                })
    }

    /// Attribute values after merging `contributors` (in insertion order) onto `base` (a stored row),
    /// or onto the survivor's own values for a fresh insert.
    private func mergedAttributes(_ contributors: [ManagedObject], base: [StoredValue]?, _ entity: EntityDescription) -> [StoredValue] {
        let survivor = policy == .storeTrump ? contributors.first! : contributors.last!
        var values = base ?? entity.storedAttributes.map { survivor.attribute($0.slot).storedValue }
        var filled = Set<Int>()
        for contributor in contributors {
            for (index, attribute) in entity.storedAttributes.enumerated() where contributor.attribute(attribute.slot).isAssigned {
                switch policy {
                case .objectTrump, .error: values[index] = contributor.attribute(attribute.slot).storedValue
                case .storeTrump:
                    if base == nil && !filled.contains(index) && contributor !== survivor && !survivor.attribute(attribute.slot).isAssigned {
                        values[index] = contributor.attribute(attribute.slot).storedValue
                    }
                }
                filled.insert(index)
            }
        }
        return values
    }

    private func mergedDestinations(_ contributors: [ManagedObject], base: [SaveOutcome.Destination]?, _ entity: EntityDescription) -> [SaveOutcome.Destination] {
        entity.toOneRelationships.enumerated().map { index, relationship in
            let assigned = contributors.compactMap { contributor -> ManagedObject? in
                let toOne = contributor.toOne(relationship.slot)
                return toOne.anyDestination
            }
            let baseValue = base?[index]
            switch policy {
            case .objectTrump, .error:
                if let last = assigned.last { return .object(last) }
                return baseValue ?? .row(nil)
            case .storeTrump:
                if let baseValue, !isEmpty(baseValue) { return baseValue }
                return assigned.first.map { .object($0) } ?? .row(nil)
            }
        }
    }

    private func isEmpty(_ destination: SaveOutcome.Destination) -> Bool {
        if case .row(nil) = destination { return true }
        return false
    }

    private func finalObject(_ object: ManagedObject) -> ManagedObject {
        var current = object
        while let survivor = survivorOf[ObjectIdentifier(current)] { current = survivor }
        return foldTargets[ObjectIdentifier(current)] ?? current
    }

    /// The row a destination has or will have in this save; nil while its insert is still to come.
    private func foreignKey(of destination: SaveOutcome.Destination) -> Int64? {
        switch destination {
        case .row(let id): return id
        case .object(let object):
            let current = finalObject(object)
            if let row = adoptedRows[ObjectIdentifier(current)] { return row.rowID }
            return current.rowID ?? newRowIDs[ObjectIdentifier(current)]
        }
    }
}
