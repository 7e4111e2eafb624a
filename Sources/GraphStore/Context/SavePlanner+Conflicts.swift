/// Unique-constraint conflicts: duplicates among the save's new objects, then against stored rows,
/// each resolved by the merge policy (or collected for `.error`).
extension SavePlanner {
    func resolveConflicts(among inserted: [ManagedObject], _ writer: any StoreWriter) throws {
        for entity in context.container.model.entities where !entity.uniqueConstraints.isEmpty {
            // One pass per constrained entity: cheaper than grouping by entity name, which hashed
            // that name for every new object.
            let objects = inserted.filter { $0.entity === entity }
            for constraint in entity.uniqueConstraints {
                let movers = keyMovers(entity, constraint)
                guard !objects.isEmpty || !movers.isEmpty else { continue }
                let survivors = resolveDuplicates(objects.filter { survivorOf[ObjectIdentifier($0)] == nil }, entity, constraint)
                resolveAgainstMovers(survivors, movers, entity, constraint)
                try resolveAgainstStore(survivors, movers, entity, constraint, writer)
            }
        }
    }

    /// Groups new objects by constrained values; each group keeps one survivor (see ``MergePolicy``).
    func resolveDuplicates(_ objects: [ManagedObject], _ entity: EntityDescription, _ constraint: [String]) -> [ManagedObject] {
        // Each key's first object, then the rest of its group only when there are duplicates (rare):
        // one dictionary entry per key, no array per key.
        var first: [ConstraintKey: Int] = [:]
        var duplicates: [Int: [ManagedObject]] = [:]
        var firsts: [(index: Int, key: ConstraintKey)] = []
        let slots = Self.slots(of: constraint, entity)
        first.reserveCapacity(objects.count)
        firsts.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            let key = self.key(of: object, slots)
            if let earlier = first[key] {
                duplicates[earlier, default: [objects[earlier]]].append(object)
            } else {
                first[key] = index
                firsts.append((index, key))
            }
        }
        if duplicates.isEmpty { return objects }
        return firsts.map { index, key in
            guard let group = duplicates[index] else { return objects[index] }
            if policy.reportsConflict(.newObject) {
                conflicts.append(ConstraintConflict(entity: entity.name, attributes: constraint, values: key.values.map(Self.text),
                                                    objects: group.map(\.objectID), storedObject: nil))
                return group[0]
            }
            let survivor = group[policy.survivor(among: group.count)]
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

    /// New objects and movers against stored rows. A row a mover is leaving is judged by its
    /// final key (see ``resolveAgainstMovers``), not the one stored before the save. A mover
    /// meeting a stored row is a conflict under every policy: both are stored identities.
    func resolveAgainstStore(_ survivors: [ManagedObject], _ movers: [ManagedObject], _ entity: EntityDescription, _ constraint: [String],
                             _ writer: any StoreWriter) throws {
        let slots = Self.slots(of: constraint, entity)
        let pending = survivors.filter { isFresh($0) } + movers
        guard !pending.isEmpty else { return }
        let keys = pending.map { key(of: $0, slots) }
        let indexes = constraint.map { name in entity.columns.firstIndex(of: name)! }
        let leaving = Set(movers.compactMap(\.rowID))
        let stored = try writer.rows(of: entity, columns: constraint, matching: Set(keys).map(\.values)).filter { !leaving.contains($0.rowID) }
        let rowsByKey = Dictionary(stored.map { row in (ConstraintKey(indexes.map { row.values[$0] }), row) }, uniquingKeysWith: { first, _ in first })
        for (object, key) in zip(pending, keys) {
            guard let row = rowsByKey[key] else { continue }
            let id = ObjectID.permanent(entity.name, row.rowID)
            if reportsConflict(of: object) {
                conflicts.append(ConstraintConflict(entity: entity.name, attributes: constraint, values: key.values.map(Self.text),
                                                    objects: [object.objectID], storedObject: id))
            } else if let registered = context.registered[id], registered !== object {
                if registered.isDeleted { continue }
                foldTargets[ObjectIdentifier(object)] = registered
            } else {
                adoptedRows[ObjectIdentifier(object)] = row
            }
        }
    }

    func key(of object: ManagedObject, _ slots: [Int]) -> ConstraintKey {
        slots.count == 1 ? .one(object.attribute(slots[0]).storedValue) : .many(slots.map { object.attribute($0).storedValue })
    }

    /// The wrapper slots of a constraint's attributes, looked up once per save, not per object.
    static func slots(of constraint: [String], _ entity: EntityDescription) -> [Int] {
        constraint.map { name in entity.attribute(named: name)!.slot }
    }

    func contributorsOf(_ object: ManagedObject) -> [ManagedObject] {
        contributors[ObjectIdentifier(object)] ?? [object]
    }

    func isFresh(_ object: ManagedObject) -> Bool {
        let id = ObjectIdentifier(object)
        return survivorOf[id] == nil && adoptedRows[id] == nil && foldTargets[id] == nil
    }

    private static func text(_ value: StoredValue) -> String { value.text }
}

/// One object's values for a unique constraint. A single-attribute constraint (the usual kind)
/// keeps its one value, so no array is allocated and hashed per object.
enum ConstraintKey: Hashable {
    case one(StoredValue)
    case many([StoredValue])

    init(_ values: [StoredValue]) {
        self = values.count == 1 ? .one(values[0]) : .many(values)
    }

    var values: [StoredValue] {
        switch self {
        case .one(let value): [value]
        case .many(let values): values
        }
    }
}
