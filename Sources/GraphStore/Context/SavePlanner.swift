/// Executes one save inside a store transaction: the optimistic-locking check of the rows it
/// changes, deletes, unique-constraint resolution, inserts, updates.
///
/// Conflicts are found in batches (one `IN` query per entity and constraint for all new objects),
/// never one query per object.
///
/// A planner lives for one save on one thread, and its maps are touched for every object saved:
/// its stored properties skip the runtime's dynamic exclusivity checks (`@exclusivity(unchecked)`),
/// which cost as much as the dictionary operations themselves.
final class SavePlanner {
    let context: ObjectContext
    let policy: MergePolicy
    @exclusivity(unchecked) var conflicts: [ConstraintConflict] = []
    /// A discarded duplicate → the object that survives it (among new objects).
    @exclusivity(unchecked) var survivorOf: [ObjectIdentifier: ManagedObject] = [:]
    /// A surviving new object → the duplicates merged into it, in insertion order (itself included).
    @exclusivity(unchecked) var contributors: [ObjectIdentifier: [ManagedObject]] = [:]
    /// A surviving new object → the stored row it takes over (no instance registered for it).
    @exclusivity(unchecked) var adoptedRows: [ObjectIdentifier: StoredRow] = [:]
    /// A surviving new object → the registered instance of the stored row it folds into.
    @exclusivity(unchecked) var foldTargets: [ObjectIdentifier: ManagedObject] = [:]
    @exclusivity(unchecked) var newRowIDs: [ObjectIdentifier: Int64] = [:]
    /// Rows a to-one foreign key stopped pointing at, per "entity.relationship": owners that may be empty now.
    @exclusivity(unchecked) var vacated: [String: Set<Int64>] = [:]
    @exclusivity(unchecked) var outcome = SaveOutcome()
    /// An updated object → its row as stored now, when that differs from what the context read
    /// (merged per column under the trump policies; see ``checkSnapshots(_:)``).
    @exclusivity(unchecked) var storedRows: [ObjectIdentifier: [StoredValue]] = [:]
    /// Deleted objects whose row another connection deleted first (trump policies only).
    @exclusivity(unchecked) var goneRows: Set<ObjectIdentifier> = []
    /// The stored rows of deleted objects, per entity, as ``checkSnapshots(_:)`` read them before
    /// any write: ``StoreWriter/willDelete(from:rowIDs:known:)`` need not read them again.
    @exclusivity(unchecked) var deletedRows: [ObjectIdentifier: [StoredRow]] = [:]

    init(context: ObjectContext) {
        self.context = context
        self.policy = context.mergePolicy
    }

    func execute(_ writer: any StoreWriter) throws -> SaveOutcome {
        try checkSnapshots(writer)
        try writeRowUpdates(writer)
        try deleteJoinRows(writer)
        try deleteRows(writer)
        let inserted = context.insertedObjects
        try resolveConflicts(among: inserted, writer)
        if !conflicts.isEmpty { throw GraphStoreError.constraintConflicts(conflicts) }
        try parkMovedKeys(writer)
        try insertRows(inserted.filter { isFresh($0) }, writer)
        try writeMerged(inserted.filter { survivorOf[ObjectIdentifier($0)] == nil && !isFresh($0) }, writer)
        try updateRows(context.updatedObjects.filter { $0.state == .updated }, writer)
        try writeJoinChanges(writer)
        try deleteEmptiedOwners(writer)
        for (discarded, _) in outcome.folds { outcome.replacements[ObjectIdentifier(discarded)] = finalObject(discarded) }
        return outcome
    }

    // MARK: - Deletes

    /// One batch per entity (``StoreWriter/writingInBatch(_:inserts:_:)``): the rows are distinct,
    /// and foreign keys are checked at commit.
    private func deleteRows(_ writer: any StoreWriter) throws {
        for (entity, objects) in Self.byEntity(context.deletedObjects) {
            let rowIDs = objects.compactMap { goneRows.contains(ObjectIdentifier($0)) ? nil : $0.rowID }
            try writer.willDelete(from: entity, rowIDs: rowIDs, known: deletedRows[ObjectIdentifier(entity)] ?? [])
            // The deleted IDs and vacated owners are gathered per entity, then added once.
            var deleted: [ObjectID] = []
            var owners = Array(repeating: Set<Int64>(), count: entity.toOneSlots.count)
            try writer.writingInBatch(entity, inserts: 0) {
                for object in objects {
                    guard let rowID = object.rowID, !goneRows.contains(ObjectIdentifier(object)) else { continue }
                    try writer.delete(from: entity, rowID: rowID)
                    deleted.append(object.objectID)
                    for (index, slot) in entity.toOneSlots.enumerated() {
                        if let owner = object.toOne(slot).committedRowID { owners[index].insert(owner) }
                    }
                }
            }
            if !deleted.isEmpty { outcome.changes.deleted[entity.name, default: []].formUnion(deleted) }
            for (index, relationship) in entity.toOneRelationships.enumerated() where !owners[index].isEmpty {
                vacated[entity.name + "." + relationship.name, default: []].formUnion(owners[index])
            }
        }
    }

    /// `objects` grouped by entity, in order of each entity's first object, keeping their order.
    static func byEntity(_ objects: [ManagedObject]) -> [(EntityDescription, [ManagedObject])] {
        var groups: [(EntityDescription, [ManagedObject])] = []
        var index: [ObjectIdentifier: Int] = [:]
        for object in objects {
            let key = ObjectIdentifier(object.entity)
            if let at = index[key] {
                groups[at].1.append(object)
            } else {
                index[key] = groups.count
                groups.append((object.entity, [object]))
            }
        }
        return groups
    }

    // MARK: - Inserts

    private func insertRows(_ objects: [ManagedObject], _ writer: any StoreWriter) throws {
        var fixups: [(ManagedObject, [String])] = []
        var inserted: [String: [ObjectID]] = [:]
        // One batch per entity: new rows, and foreign keys checked at commit.
        for (entity, objects) in Self.byEntity(dependencyOrdered(objects)) {
            try writer.writingInBatch(entity, inserts: objects.count) {
                for object in objects {
                    // A plain insert (no duplicates folded into it) writes its own values: no merge to
                    // work out, nothing to assign back.
                    let merged = contributors[ObjectIdentifier(object)].map { $0.count > 1 } ?? false
                    var values = merged ? mergedAttributes(contributorsOf(object), base: nil, entity) : ownValues(of: object)
                    let destinations = merged ? mergedDestinations(contributorsOf(object), base: nil, entity) : ownDestinations(of: object)
                    var unresolved: [String] = []
                    for (relationship, destination) in zip(entity.toOneRelationships, destinations) {
                        let key = foreignKey(of: destination)
                        values.append(key.map(StoredValue.integer) ?? .null)
                        if key == nil && !isEmpty(destination) { unresolved.append(relationship.name) }
                    }
                    let rowID = try writer.insert(into: entity, values: values)
                    newRowIDs[ObjectIdentifier(object)] = rowID
                    if !unresolved.isEmpty { fixups.append((object, unresolved)) }
                    outcome.saved.append(.init(object: object, rowID: rowID, attributes: merged ? Array(values[..<entity.storedAttributes.count]) : nil,
                                               destinations: destinations))
                    inserted[entity.name, default: []].append(.permanent(entity.name, rowID))
                }
            }
        }
        for (entity, ids) in inserted { outcome.changes.inserted[entity, default: []].formUnion(ids) }
        for (object, columns) in fixups {
            let destinations = mergedDestinations(contributorsOf(object), base: nil, object.entity)
            let values = object.entity.toOneRelationships.enumerated().filter { columns.contains($0.element.name) }
                .map { foreignKey(of: destinations[$0.offset]).map(StoredValue.integer) ?? .null }
            try writer.update(object.entity, rowID: newRowIDs[ObjectIdentifier(object)]!, columns: columns, values: values)
        }
    }

    /// A new object's stored attribute values, with room for its foreign keys.
    private func ownValues(of object: ManagedObject) -> [StoredValue] {
        let entity = object.entity
        var values: [StoredValue] = []
        values.reserveCapacity(entity.columns.count)
        for slot in entity.storedAttributeSlots { values.append(object.attribute(slot).storedValue) }
        return values
    }

    /// A new object's to-one destinations: objects, or rows linked by ID.
    private func ownDestinations(of object: ManagedObject) -> [SaveOutcome.Destination] {
        object.entity.toOneRelationships.map { relationship in
            let toOne = object.toOne(relationship.slot)
            return toOne.loadedDestination.map { .object($0) } ?? .row(toOne.rowID)
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
        // A stable bucket per level: one level lookup per object, no comparison sort.
        var buckets: [Int: [ManagedObject]] = [:]
        for object in objects { buckets[level(object.entity, []), default: []].append(object) }
        return buckets.keys.sorted().flatMap { buckets[$0]! }
    }
}
