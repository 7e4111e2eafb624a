/// Merged values and destinations for rows several objects contribute to, and owners a save leaves empty.
extension SavePlanner {
    func currentValues(of object: ManagedObject) -> ([StoredValue], [SaveOutcome.Destination]) {
        let entity = object.entity
        return (entity.storedAttributes.map { object.attribute($0.slot).storedValue },
                entity.toOneRelationships.map { relationship in
                    object.toOne(relationship.slot).anyDestination.map { .object($0) } ?? .row(nil)
                })
    }

    /// Attribute values after merging `contributors` (in insertion order) onto `base` (a stored row),
    /// or onto the survivor's own values for a fresh insert, by the policy's rules.
    func mergedAttributes(_ contributors: [ManagedObject], base: [StoredValue]?, _ entity: EntityDescription) -> [StoredValue] {
        let survivor = contributors[policy.survivor(among: contributors.count)]
        return entity.storedAttributes.enumerated().map { index, attribute in
            let offered = contributors.lazy.map { contributor -> StoredValue? in
                let value = contributor.attribute(attribute.slot)
                return value.isAssigned ? value.storedValue : nil
            }
            return policy.resolved(.attribute, stored: base?[index], storedIsEmpty: false, merged: policy.merged(offered),
                                   unassigned: survivor.attribute(attribute.slot).storedValue)
        }
    }

    func mergedDestinations(_ contributors: [ManagedObject], base: [SaveOutcome.Destination]?, _ entity: EntityDescription) -> [SaveOutcome.Destination] {
        entity.toOneRelationships.enumerated().map { index, relationship in
            // A destination set by ID stays a row: nothing is loaded to save it.
            let offered = contributors.lazy.map { contributor -> SaveOutcome.Destination? in
                let toOne = contributor.toOne(relationship.slot)
                if let object = toOne.loadedDestination { return .object(object) }
                return toOne.rowID.map { .row($0) }
            }
            let stored = base?[index]
            return policy.resolved(.toOne, stored: stored, storedIsEmpty: stored.map(isEmpty) ?? true, merged: policy.merged(offered),
                                   unassigned: .row(nil))
        }
    }

    /// Whether a unique-key conflict of `object` with a stored identity is reported
    /// (``GraphStoreError/constraintConflicts(_:)``) rather than resolved by folding the object into
    /// it: the policy's rule for a stored row, or for a moved key when `object` is an updated object.
    func reportsConflict(of object: ManagedObject) -> Bool {
        policy.reportsConflict(object.state == .updated ? .movedKey : .storedRow(writtenBySameWork: false))
    }

    func isEmpty(_ destination: SaveOutcome.Destination) -> Bool {
        if case .row(nil) = destination { return true }
        return false
    }

    func finalObject(_ object: ManagedObject) -> ManagedObject {
        var current = object
        while let survivor = survivorOf[ObjectIdentifier(current)] { current = survivor }
        return foldTargets[ObjectIdentifier(current)] ?? current
    }

    /// The row a destination has or will have in this save; nil while its insert is still to come.
    func foreignKey(of destination: SaveOutcome.Destination) -> Int64? {
        switch destination {
        case .row(let id): return id
        case .object(let object):
            let current = finalObject(object)
            if let row = adoptedRows[ObjectIdentifier(current)] { return row.rowID }
            return current.rowID ?? newRowIDs[ObjectIdentifier(current)]
        }
    }

    // MARK: - Owners left empty

    func vacate(_ entity: EntityDescription, _ relationship: String, _ rowID: Int64?) {
        guard let rowID else { return }
        vacated[entity.name + "." + relationship, default: []].insert(rowID)
    }

    /// Deletes owners whose `deletesOwnerWhenEmpty` to-many this save emptied.
    func deleteEmptiedOwners(_ writer: any StoreWriter) throws {
        for id in try writer.deleteEmptiedOwners(vacated, model: context.container.model) {
            outcome.changes.deleted[id.entityName, default: []].insert(id)
            outcome.emptiedOwners.append(id)
        }
    }
}
