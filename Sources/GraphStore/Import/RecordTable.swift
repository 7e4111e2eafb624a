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
    /// Many-to-many relationships a record may give the complete member set of (``setRelationships``).
    let setCount: Int
    /// Attributes set only when a record inserts a row (see ``ImportRecords/fieldSetOnInsert(_:)``).
    var insertOnly: UInt64 = 0
    private var storage = Storage()

    init(entity: EntityDescription, keyIndex: Int) {
        precondition(entity.storedAttributes.count <= 64 && entity.manyToManyRelationships.count <= 64,
                     "imports support entities of at most 64 attributes and 64 many-to-many relationships")
        (self.entity, self.keyIndex) = (entity, keyIndex)
        width = entity.storedAttributes.count
        linkCount = entity.toOneRelationships.count
        setCount = entity.manyToManyRelationships.count
    }

    /// Each group's key, in order of first appearance.
    var keys: [StoredValue] { storage.keys }
    var groupCount: Int { storage.keys.count }
    var recordCount: Int { storage.assigned.count }

    @usableFromInline
    mutating func append(
        key: StoredValue, _ recordValues: [StoredValue], _ recordAssigned: UInt64, _ recordLinks: [Int32], _ recordSets: [[Int32]?]
    ) -> Int {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage.append(key: key, keyIndex: keyIndex, recordValues, recordAssigned | 1 << keyIndex, recordLinks, recordSets)
    }

    /// Room for `records` records without growing.
    mutating func reserveCapacity(_ records: Int) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.reserveCapacity(records, width: width, linkCount: linkCount)
    }

    /// The first record of `group`, when it is the group's only one.
    func onlyRecord(of group: Int) -> Int? {
        let first = storage.firstRecord[group]
        return storage.next[first] < 0 ? first : nil
    }

    /// The records of `group`, in the order they were appended.
    func records(of group: Int) -> [Int] {
        var records = [storage.firstRecord[group]]
        while case let next = storage.next[records[records.count - 1]], next >= 0 { records.append(Int(next)) }
        return records
    }

    func size(of group: Int) -> Int { storage.sizes[group] }

    func value(_ record: Int, _ attribute: Int) -> StoredValue { storage.values[record * width + attribute] }
    func isAssigned(_ record: Int, _ attribute: Int) -> Bool { storage.assigned[record] & (1 << attribute) != 0 }
    func link(_ record: Int, _ relationship: Int) -> Int32 { storage.links[record * linkCount + relationship] }
    func assignedMask(_ record: Int) -> UInt64 { storage.assigned[record] }
    /// Whether any record gives its many-to-many `set`.
    func givesSet(_ set: Int) -> Bool { storage.givenSets & (1 << set) != 0 }

    /// The destination groups a record gives as its complete set `set`, or nil when it gives none.
    func members(_ record: Int, _ set: Int) -> ArraySlice<Int32>? {
        guard setCount > 0 else { return nil }
        let start = storage.setStarts[record * setCount + set]
        return start < 0 ? nil : storage.members[Int(start)..<Int(start + storage.setSizes[record * setCount + set])]
    }
    func isInsertOnly(_ attribute: Int) -> Bool { insertOnly & (1 << attribute) != 0 }

    /// The arrays; never shared once appended to (see `append`). Immutable once a table is saved.
    /// Their accesses skip the runtime's exclusivity checks: each is a plain load or store, made
    /// for every record appended.
    private final class Storage: @unchecked Sendable {
        @exclusivity(unchecked) var keys: [StoredValue] = []
        @exclusivity(unchecked) var firstRecord: [Int] = []
        @exclusivity(unchecked) var lastRecord: [Int] = []
        @exclusivity(unchecked) var sizes: [Int] = []
        /// Each record's next record with the same key, or -1 (repeats are rare, but chained cheaply).
        @exclusivity(unchecked) var next: [Int32] = []
        @exclusivity(unchecked) var groupOfKey: [StoredValue: Int] = [:]
        @exclusivity(unchecked) var values: [StoredValue] = []
        @exclusivity(unchecked) var assigned: [UInt64] = []
        @exclusivity(unchecked) var links: [Int32] = []
        /// Per record and many-to-many: where its members start in `members` (-1: no set given), and how many.
        @exclusivity(unchecked) var setStarts: [Int32] = []
        @exclusivity(unchecked) var setSizes: [Int32] = []
        @exclusivity(unchecked) var members: [Int32] = []
        /// The many-to-many sets some record gives, as a bit mask.
        @exclusivity(unchecked) var givenSets: UInt64 = 0

        func copy() -> Storage {
            let copy = Storage()
            (copy.keys, copy.firstRecord, copy.lastRecord, copy.sizes, copy.next) = (keys, firstRecord, lastRecord, sizes, next)
            (copy.groupOfKey, copy.values, copy.assigned, copy.links) = (groupOfKey, values, assigned, links)
            (copy.setStarts, copy.setSizes, copy.members, copy.givenSets) = (setStarts, setSizes, members, givenSets)
            return copy
        }

        func reserveCapacity(_ records: Int, width: Int, linkCount: Int) {
            values.reserveCapacity(records * width)
            assigned.reserveCapacity(records)
            links.reserveCapacity(records * linkCount)
            next.reserveCapacity(records)
            // Groups: at most one per record (a page's photographers are fewer, but growing the
            // dictionary rehashes every key so far).
            groupOfKey.reserveCapacity(records)
            keys.reserveCapacity(records)
            firstRecord.reserveCapacity(records)
            lastRecord.reserveCapacity(records)
            sizes.reserveCapacity(records)
        }

        func append(
            key: StoredValue, keyIndex: Int, _ recordValues: [StoredValue], _ recordAssigned: UInt64, _ recordLinks: [Int32], _ recordSets: [[Int32]?]
        ) -> Int {
            let record = assigned.count
            let start = values.count
            // Element by element: `append(contentsOf:)` of a handful of values costs more than the copy.
            for value in recordValues { values.append(value) }
            values[start + keyIndex] = key
            assigned.append(recordAssigned)
            for link in recordLinks { links.append(link) }
            for (index, set) in recordSets.enumerated() {
                setStarts.append(set == nil ? -1 : Int32(members.count))
                setSizes.append(Int32(set?.count ?? 0))
                if let set {
                    members.append(contentsOf: set)
                    givenSets |= 1 << index
                }
            }
            next.append(-1)
            // One hash: the key's group, inserted as a new one if the key is new.
            let candidate = keys.count
            let group = Self.value(&groupOfKey[key, default: candidate])
            if group != candidate {
                next[lastRecord[group]] = Int32(record)
                lastRecord[group] = record
                sizes[group] += 1
                return group
            }
            keys.append(key)
            firstRecord.append(record)
            lastRecord.append(record)
            sizes.append(1)
            return candidate
        }

        /// Reads a value through a dictionary's `default:` subscript, which finds or inserts with one hash.
        @inline(__always) private static func value(_ value: inout Int) -> Int { value }
    }
}
