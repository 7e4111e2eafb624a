/// The storage behind ``ImportRecords``: records laid out flat (no array per record), grouped by
/// key as they are appended.
@usableFromInline
struct RecordTable: Sendable {
    static let unlinked: Int32 = -1

    let entity: EntityDescription
    /// The key attribute's index in ``EntityDescription/storedAttributes``.
    let keyIndex: Int
    let width: Int
    let linkCount: Int

    /// Each group's key, in order of first appearance.
    private(set) var keys: [StoredValue] = []
    /// Each group's first record.
    private(set) var firstRecord: [Int] = []
    /// A group's later records, in order (rare: a feed repeating itself).
    private(set) var laterRecords: [Int: [Int]] = [:]
    private var groupOfKey: [StoredValue: Int] = [:]
    private var values: [StoredValue] = []
    private var assigned: [UInt64] = []
    private var links: [Int32] = []
    private(set) var recordCount = 0

    init(entity: EntityDescription, keyIndex: Int) {
        precondition(entity.storedAttributes.count <= 64, "imports support entities of at most 64 attributes")
        (self.entity, self.keyIndex) = (entity, keyIndex)
        width = entity.storedAttributes.count
        linkCount = entity.toOneRelationships.count
    }

    var groupCount: Int { keys.count }

    @usableFromInline
    mutating func append(key: StoredValue, _ recordValues: [StoredValue], _ recordAssigned: UInt64, _ recordLinks: [Int32]) -> Int {
        let record = recordCount
        recordCount += 1
        values.append(contentsOf: recordValues)
        values[record * width + keyIndex] = key
        assigned.append(recordAssigned | 1 << keyIndex)
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

    /// How many records share group `group`'s key.
    func size(of group: Int) -> Int { 1 + (laterRecords[group]?.count ?? 0) }

    func records(of group: Int) -> [Int] { [firstRecord[group]] + (laterRecords[group] ?? []) }

    func value(_ record: Int, _ attribute: Int) -> StoredValue { values[record * width + attribute] }
    func isAssigned(_ record: Int, _ attribute: Int) -> Bool { assigned[record] & (1 << attribute) != 0 }
    func link(_ record: Int, _ relationship: Int) -> Int32 { links[record * linkCount + relationship] }
    func assignedMask(_ record: Int) -> UInt64 { assigned[record] }
}
