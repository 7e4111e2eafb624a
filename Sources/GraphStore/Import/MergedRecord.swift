/// A group's records merged into one, as the policy's rules pick among new duplicates
/// (``MergePolicy/laterDuplicateWins(earlierAssigned:)``). A group of one record (nearly all) is
/// read in place, without a copy.
struct MergedRecord {
    /// The group's only record, or -1 when several were merged into `values` and `links`.
    private let record: Int
    private var values: [StoredValue] = []
    private var links: [Int32] = []
    private var sets: [ArraySlice<Int32>?] = []
    private(set) var assigned: UInt64 = 0

    init(_ table: RecordTable, group: Int, policy: MergePolicy) {
        if let only = table.onlyRecord(of: group) {
            record = only
            assigned = table.assignedMask(only)
            return
        }
        record = -1
        values = Array(repeating: .null, count: table.width)
        links = Array(repeating: RecordTable.unlinked, count: table.linkCount)
        sets = Array(repeating: nil, count: table.setCount)
        for record in table.records(of: group) {
            for attribute in 0..<table.width where table.isAssigned(record, attribute) && policy.laterDuplicateWins(earlierAssigned: isAssigned(attribute)) {
                values[attribute] = table.value(record, attribute)
                assigned |= 1 << attribute
            }
            for link in 0..<table.linkCount {
                let target = table.link(record, link)
                if target >= 0 && policy.laterDuplicateWins(earlierAssigned: links[link] >= 0) { links[link] = target }
            }
            for set in 0..<table.setCount {
                if let members = table.members(record, set), policy.laterDuplicateWins(earlierAssigned: sets[set] != nil) { sets[set] = members }
            }
        }
    }

    func isAssigned(_ attribute: Int) -> Bool { assigned & (1 << attribute) != 0 }
    func value(_ attribute: Int, in table: RecordTable) -> StoredValue { record >= 0 ? table.value(record, attribute) : values[attribute] }
    /// The destination group of link `link`, or -1.
    func link(_ link: Int, in table: RecordTable) -> Int32 { record >= 0 ? table.link(record, link) : links[link] }
    /// The destination groups of many-to-many `set`, or nil when no record gave it.
    func members(_ set: Int, in table: RecordTable) -> ArraySlice<Int32>? { record >= 0 ? table.members(record, set) : sets[set] }
}
