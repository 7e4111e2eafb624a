#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Unique keys that updated objects change ("movers"): renames, chains, swaps, a key handed from a
/// stored row to a new object. Conflicts are judged on the save's final state, so a row that gives
/// up a key in this save no longer holds it; and the rows are written so that no statement of the
/// save ever meets a key before its holder has let go of it.
extension SavePlanner {
    /// Updated objects of `entity` that write a new value for one of `constraint`'s attributes.
    func keyMovers(_ entity: EntityDescription, _ constraint: [String]) -> [ManagedObject] {
        context.updatedObjects.filter { $0.state == .updated && $0.entity === entity && !movedColumns(of: $0, constraint).isEmpty }
    }

    /// The columns of `constraint` whose new value this save writes for an updated object: the
    /// same test ``updateRows`` applies (under `storeTrump`, a column another connection changed
    /// keeps the store's value, so it does not move).
    func movedColumns(of object: ManagedObject, _ constraint: [String]) -> [String] {
        let attributes = object.entity.storedAttributes
        let stored = storedRows[ObjectIdentifier(object)]
        let snapshot = stored.map { _ in Self.snapshot(of: object) }
        return constraint.filter { name in
            let index = attributes.firstIndex { $0.name == name }!
            let storage = object.attribute(attributes[index].slot)
            return storage.committed != storage.storedValue && keepsOwnValue(index, stored, snapshot)
        }
    }

    /// Conflicts among movers and between new objects and movers, on their final keys.
    ///
    /// Two movers taking one key are two stored identities: a conflict under every policy (the
    /// trump policies never delete a stored row to make room). A new object taking a mover's new
    /// key meets it as it would meet a stored row: reported under `.error`, else folded into it.
    func resolveAgainstMovers(_ survivors: [ManagedObject], _ movers: [ManagedObject], _ entity: EntityDescription, _ constraint: [String]) {
        guard !movers.isEmpty else { return }
        let slots = Self.slots(of: constraint, entity)
        var moverByKey: [ConstraintKey: ManagedObject] = [:]
        for mover in movers {
            let key = key(of: mover, slots)
            if let other = moverByKey[key], reportsConflict(of: mover) {
                conflicts.append(ConstraintConflict(entity: entity.name, attributes: constraint, values: key.values.map(\.text),
                                                    objects: [other.objectID, mover.objectID], storedObject: nil))
            } else {
                moverByKey[key] = mover
            }
        }
        for object in survivors where isFresh(object) {
            let key = key(of: object, slots)
            guard let mover = moverByKey[key] else { continue }
            if reportsConflict(of: object) {
                conflicts.append(ConstraintConflict(entity: entity.name, attributes: constraint, values: key.values.map(\.text),
                                                    objects: [object.objectID], storedObject: mover.objectID))
            } else {
                foldTargets[ObjectIdentifier(object)] = mover
            }
        }
    }

    /// Writes a parking value, unique to the row, into every constrained column a mover changes,
    /// before any insert or update of the save: afterwards every key a mover gives up is free, and
    /// every final key (checked free by the conflict pass) can be written in any order. The final
    /// values are written by ``updateRows`` (or a merge) in the same transaction.
    func parkMovedKeys(_ writer: any StoreWriter) throws {
        for object in context.updatedObjects where object.state == .updated {
            let entity = object.entity
            guard !entity.uniqueConstraints.isEmpty, let rowID = object.rowID else { continue }
            let columns = Array(Set(entity.uniqueConstraints.flatMap { movedColumns(of: object, $0) })).sorted()
            guard !columns.isEmpty else { continue }
            let values = columns.map { name in
                Self.parkingValue(for: object.attribute(entity.attribute(named: name)!.slot).storedValue, rowID: rowID)
            }
            try writer.update(entity, rowID: rowID, columns: columns, values: values)
        }
    }

    /// A value of the final value's storage class that no real key is expected to hold, distinct
    /// per row. A final nil is written at once: nulls never collide.
    static func parkingValue(for final: StoredValue, rowID: Int64) -> StoredValue {
        switch final {
        case .null: .null
        case .integer: .integer(Int64.min + rowID)
        case .real: .real(-(0x1p1000 + Double(rowID) * 0x1p948))
        case .text: .text("\u{1}graphstore-moving-\(rowID)")
        case .blob: .blob(Data("\u{1}graphstore-moving-\(rowID)".utf8))
        }
    }
}
