/// The many-to-many links one transaction wrote or removed (its join rows), as history records
/// them: each linked object's to-many is listed among that object's changed attributes, as Core
/// Data lists a relationship in `updatedProperties`. An object the transaction inserted or deleted
/// shows no such update (its insert or delete says it all), and a join row is never a change itself.
struct HistoryLinks {
    struct Object: Hashable {
        let entity: ObjectIdentifier
        let rowID: Int64
    }

    /// Per linked object, its to-manys that changed, in the order first recorded.
    private(set) var names: [Object: [String]] = [:]
    /// The linked objects in the order first recorded, with their entities.
    private(set) var objects: [(entity: EntityDescription, rowID: Int64)] = []

    init(_ entries: [HistoryRecorder.Entry]) {
        var sides: [ObjectIdentifier: [(entity: EntityDescription, relationship: String)?]] = [:]
        for entry in entries where entry.entity.isJoin {
            guard let row = entry.link else { continue }
            let join = ObjectIdentifier(entry.entity)
            if sides[join] == nil { sides[join] = entry.entity.joinSides }
            for (column, side) in sides[join]!.enumerated() {
                guard let side, case .integer(let rowID) = row[column] else { continue }
                add(side.relationship, of: side.entity, rowID)
            }
        }
    }

    var isEmpty: Bool { objects.isEmpty }

    func names(of entity: EntityDescription, _ rowID: Int64) -> [String] { names[Object(entity: ObjectIdentifier(entity), rowID: rowID)] ?? [] }

    private mutating func add(_ relationship: String, of entity: EntityDescription, _ rowID: Int64) {
        let object = Object(entity: ObjectIdentifier(entity), rowID: rowID)
        if names[object] == nil { objects.append((entity, rowID)) }
        if names[object, default: []].contains(relationship) { return }
        names[object, default: []].append(relationship)
    }

    /// The updates of linked objects the transaction wrote nothing else to, named by their unique
    /// keys as they are now (one read per 500 rows of an entity); `written` are the objects it did.
    func updatesOfObjectsOnlyLinked(besides written: Set<Object>, reading reader: any StoreReader) throws -> [HistoryChangeRow] {
        var byEntity: [ObjectIdentifier: (entity: EntityDescription, rowIDs: [Int64])] = [:]
        for (entity, rowID) in objects where !written.contains(Object(entity: ObjectIdentifier(entity), rowID: rowID)) {
            byEntity[ObjectIdentifier(entity), default: (entity, [])].rowIDs.append(rowID)
        }
        var keys: [Object: StoredValue] = [:]
        for (entity, rowIDs) in byEntity.values {
            guard let column = entity.historyKeyColumn else {
                for rowID in rowIDs { keys[Object(entity: ObjectIdentifier(entity), rowID: rowID)] = .integer(rowID) }
                continue
            }
            for row in try reader.rows(of: entity, rowIDs: rowIDs) { keys[Object(entity: ObjectIdentifier(entity), rowID: row.rowID)] = row.values[column] }
        }
        return objects.compactMap { entity, rowID in
            let object = Object(entity: ObjectIdentifier(entity), rowID: rowID)
            guard !written.contains(object), let key = keys[object] else { return nil }
            return HistoryChangeRow(entity: entity.name, key: HistoryJSON.encode(key), kind: .updated,
                                    fields: HistoryJSON.encode(HistoryFields(changed: names[object] ?? [])))
        }
    }
}
