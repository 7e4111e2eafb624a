/// The rows of one entity an ``ImportSession`` stored or judged itself: rows it inserted (kept as
/// ranges of row ids, which inserts hand out in order) and rows that were stored before it began.
/// A million-row import remembers a few ranges, not a million ids.
struct SessionRows {
    /// Inserted row ids as sorted, disjoint closed ranges.
    private var inserted: [ClosedRange<Int64>] = []
    /// Rows stored before the session that it met: true while counted `unchanged`.
    private var met: [Int64: Bool] = [:]

    func contains(_ rowID: Int64) -> Bool { met[rowID] != nil || insertedContains(rowID) }

    /// Whether a row stored before the session was counted `unchanged` (a later change makes it `updated`).
    func isCountedUnchanged(_ rowID: Int64) -> Bool { met[rowID] == true }

    private mutating func noteInserted(_ rowID: Int64) {
        if let last = inserted.last {
            if last.upperBound + 1 == rowID { inserted[inserted.count - 1] = last.lowerBound...rowID; return }
            if last.upperBound < rowID { inserted.append(rowID...rowID); return }
        } else {
            inserted.append(rowID...rowID)
            return
        }
        // A row id below the last range (SQLite reuses the ids of deleted last rows): keep the order.
        let index = inserted.partitionPoint { $0.lowerBound > rowID }
        inserted.insert(rowID...rowID, at: index)
    }

    /// Adds what a committed pass stored and met.
    mutating func apply(_ changes: SessionRowChanges) {
        for rowID in changes.inserted { noteInserted(rowID) }
        met.reserveCapacity(met.count + changes.met.count)
        for (rowID, unchanged) in changes.met { met[rowID] = unchanged }
    }

    private func insertedContains(_ rowID: Int64) -> Bool {
        let index = inserted.partitionPoint { $0.upperBound >= rowID }
        return index < inserted.count && inserted[index].contains(rowID)
    }
}

/// What one import pass stored and met, in order: lists until its transaction commits, so a
/// row costs the session one hash, not two.
struct SessionRowChanges {
    private(set) var inserted: [Int64] = []
    private(set) var met: [(rowID: Int64, unchanged: Bool)] = []

    mutating func noteInserted(_ rowID: Int64) { inserted.append(rowID) }

    /// A row stored before the session: `unchanged` while it counts as unchanged (a later change of the same row wins).
    mutating func noteMet(_ rowID: Int64, unchanged: Bool) { met.append((rowID, unchanged)) }
}

extension Array {
    /// The first index whose element satisfies `belongsToSecondPart` (the array is partitioned by it).
    func partitionPoint(_ belongsToSecondPart: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if belongsToSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// Rows that records link to (photographers, say), as an import last wrote or read them, so a later
/// save names them without reading them again. Bounded: past `capacity` rows it starts over.
struct RememberedRows {
    private static let capacity = 50_000
    private(set) var rows: [StoredValue: StoredRow] = [:]

    subscript(key: StoredValue) -> StoredRow? { rows[key] }

    mutating func remember(_ other: RememberedRows) {
        if rows.count + other.rows.count > Self.capacity { rows.removeAll(keepingCapacity: true) }
        rows.merge(other.rows) { _, new in new }
    }

    mutating func set(_ key: StoredValue, _ row: StoredRow?) { rows[key] = row }

    /// Forgets rows a save deleted (owners it left empty).
    mutating func forget(_ rowIDs: Set<Int64>) { rows = rows.filter { !rowIDs.contains($0.value.rowID) } }

    var isEmpty: Bool { rows.isEmpty }
}
