/// The storage behind ``ImportRecords``: records laid out flat (no array per record), grouped by
/// key as they are appended. A value type over one buffer object (copied on write), so that
/// passing a table around costs one reference count, not one per array.
@usableFromInline
struct RecordTable: Sendable {
    static let unlinked: Int32 = -1

    let entity: EntityDescription
    /// The key attribute's index in ``EntityDescription/storedAttributes``.
    let keyIndex: Int
    let width: Int
    let linkCount: Int
    private var storage = Storage()

    init(entity: EntityDescription, keyIndex: Int) {
        precondition(entity.storedAttributes.count <= 64, "imports support entities of at most 64 attributes")
        (self.entity, self.keyIndex) = (entity, keyIndex)
        width = entity.storedAttributes.count
        linkCount = entity.toOneRelationships.count
    }

    /// Each group's key, in order of first appearance.
    var keys: [StoredValue] { storage.keys }
    var groupCount: Int { storage.keys.count }
    var recordCount: Int { storage.assigned.count }

    @usableFromInline
    mutating func append(key: StoredValue, _ recordValues: [StoredValue], _ recordAssigned: UInt64, _ recordLinks: [Int32]) -> Int {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.append(key: key, keyIndex: keyIndex, recordValues, recordAssigned | 1 << keyIndex, recordLinks)
    }

    /// The first record of `group`, when it is the group's only one.
    func onlyRecord(of group: Int) -> Int? { storage.laterRecords[group] == nil ? storage.firstRecord[group] : nil }

    func records(of group: Int) -> [Int] { [storage.firstRecord[group]] + (storage.laterRecords[group] ?? []) }
    func size(of group: Int) -> Int { 1 + (storage.laterRecords[group]?.count ?? 0) }

    func value(_ record: Int, _ attribute: Int) -> StoredValue { storage.values[record * width + attribute] }
    func isAssigned(_ record: Int, _ attribute: Int) -> Bool { storage.assigned[record] & (1 << attribute) != 0 }
    func link(_ record: Int, _ relationship: Int) -> Int32 { storage.links[record * linkCount + relationship] }
    func assignedMask(_ record: Int) -> UInt64 { storage.assigned[record] }

    /// The arrays; never shared once appended to (see `append`). Immutable once a table is saved.
    private final class Storage: @unchecked Sendable {
        var keys: [StoredValue] = []
        var firstRecord: [Int] = []
        /// A group's later records, in order (rare: a feed repeating itself).
        var laterRecords: [Int: [Int]] = [:]
        var groupOfKey: [StoredValue: Int] = [:]
        var values: [StoredValue] = []
        var assigned: [UInt64] = []
        var links: [Int32] = []

        func copy() -> Storage {
            let copy = Storage()
            (copy.keys, copy.firstRecord, copy.laterRecords, copy.groupOfKey) = (keys, firstRecord, laterRecords, groupOfKey)
            (copy.values, copy.assigned, copy.links) = (values, assigned, links)
            return copy
        }

        func append(key: StoredValue, keyIndex: Int, _ recordValues: [StoredValue], _ recordAssigned: UInt64, _ recordLinks: [Int32]) -> Int {
            let record = assigned.count
            let start = values.count
            values.append(contentsOf: recordValues)
            values[start + keyIndex] = key
            assigned.append(recordAssigned)
            links.append(contentsOf: recordLinks)
            if let group = groupOfKey[key] {
                laterRecords[group, default: []].append(record)
                return group
            }
            let group = keys.count
            groupOfKey[key] = group
            keys.append(key)
            firstRecord.append(record)
            return group
        }
    }
}
