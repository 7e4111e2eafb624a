/// A save's merged rows and updates: survivors written over stored rows, and changed objects'
/// columns written per column under the merge policy.
extension SavePlanner {
    /// Survivors that took over a stored row, or fold into the instance registered for it.
    func writeMerged(_ objects: [ManagedObject], _ writer: any StoreWriter) throws {
        for object in objects {
            let entity = object.entity
            if let target = foldTargets[ObjectIdentifier(object)] {
                // Merged onto the target's values in memory, written against its row as stored: the
                // target's own changes (a new key, when it is a mover) are written too.
                let base = currentValues(of: target)
                try writeMerge(into: target, rowID: target.rowID!, base: base, contributors: contributorsOf(object), writer,
                               stored: Self.snapshot(of: target))
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
        contributors: [ManagedObject], _ writer: any StoreWriter, adopted: Bool = false, stored: [StoredValue]? = nil
    ) throws {
        let entity = object.entity
        let attributes = mergedAttributes(contributors, base: base.0, entity)
        let destinations = mergedDestinations(contributors, base: base.1, entity)
        let oldRow = stored ?? base.0 + base.1.map { foreignKey(of: $0).map(StoredValue.integer) ?? .null }
        let newRow = attributes + destinations.map { foreignKey(of: $0).map(StoredValue.integer) ?? .null }
        let changed = entity.columns.indices.filter { oldRow[$0] != newRow[$0] }
        for index in changed where index >= entity.storedAttributes.count {
            if case .integer(let old) = oldRow[index] { vacate(entity, entity.columns[index], old) }
        }
        try writer.update(entity, rowID: rowID, columns: changed.map { entity.columns[$0] }, values: changed.map { newRow[$0] })
        outcome.saved.append(.init(object: object, rowID: rowID, attributes: attributes, destinations: destinations, adopted: adopted))
        if !changed.isEmpty || object.state == .updated { outcome.changes.updated[entity.name, default: []].insert(.permanent(entity.name, rowID)) }
    }

    func updateRows(_ objects: [ManagedObject], _ writer: any StoreWriter) throws {
        // Objects a merge already wrote (registered rows that duplicates folded into) are done.
        let written = Set(outcome.saved.map { ObjectIdentifier($0.object) })
        for object in objects where !written.contains(ObjectIdentifier(object)) {
            guard let rowID = object.rowID else { continue }
            let entity = object.entity
            let stored = storedRows[ObjectIdentifier(object)]
            let snapshot = stored.map { _ in Self.snapshot(of: object) }
            var columns: [String] = []
            var values: [StoredValue] = []
            var merged: [StoredValue] = []
            for (index, attribute) in entity.storedAttributes.enumerated() {
                let storage = object.attribute(attribute.slot)
                let own = storage.storedValue
                if storage.committed != own && keepsOwnValue(index, stored, snapshot) {
                    columns.append(attribute.name)
                    values.append(own)
                }
                if let stored { merged.append(columns.last == attribute.name ? own : stored[index]) }
            }
            var destinations: [SaveOutcome.Destination] = []
            for (offset, relationship) in entity.toOneRelationships.enumerated() {
                let toOne = object.toOne(relationship.slot)
                let index = entity.storedAttributes.count + offset
                let current = if let destination = toOne.loadedDestination { foreignKey(of: .object(destination)) } else { toOne.rowID }
                if toOne.isAssigned && current != toOne.committedRowID && keepsOwnValue(index, stored, snapshot) {
                    columns.append(relationship.name)
                    values.append(current.map(StoredValue.integer) ?? .null)
                    vacate(entity, relationship.name, stored.map { Self.rowID($0[index]) } ?? toOne.committedRowID)
                }
                guard let stored else { continue }  // merged destinations only for a row changed elsewhere
                destinations.append(columns.last == relationship.name ? toOne.loadedDestination.map { .object($0) } ?? .row(toOne.rowID)
                                                                      : .row(Self.rowID(stored[index])))
            }
            try writer.update(entity, rowID: rowID, columns: columns, values: values)
            outcome.saved.append(stored == nil ? .init(object: object, rowID: rowID)
                                               : .init(object: object, rowID: rowID, attributes: merged, destinations: destinations))
            if !columns.isEmpty { outcome.changes.updated[entity.name, default: []].insert(object.objectID) }
        }
    }

    /// Whether a column the object changed is written: always without a conflict; under
    /// `storeTrump` only when the store still holds the value the context read.
    func keepsOwnValue(_ index: Int, _ stored: [StoredValue]?, _ snapshot: [StoredValue]?) -> Bool {
        guard let stored, let snapshot, policy == .storeTrump else { return true }
        return stored[index] == snapshot[index]
    }

    private static func rowID(_ value: StoredValue) -> Int64? {
        if case .integer(let rowID) = value { return rowID }
        return nil
    }
}
