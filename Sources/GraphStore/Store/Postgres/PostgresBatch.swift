/// The inserts, updates and deletes of one batch of rows of one entity on PostgreSQL (see
/// ``StoreWriter/writingInBatch(_:inserts:_:)``), kept until the batch ends and then sent as a few
/// set-based statements: one `DELETE … WHERE "id" = ANY(…)`, one `INSERT … SELECT … FROM unnest(…)`
/// and one `UPDATE … FROM unnest(…)` per set of changed columns, each column bound as one array.
///
/// One round trip per row made an import of 50,000 photos over loopback 8× slower than the same
/// rows sent set-based (issue 24). Inserted rows get their ids from the table's identity sequence
/// up front (one `nextval` query per block), so callers still learn each id at once.
final class PostgresBatch {
    let entity: EntityDescription
    /// Ids taken from the sequence and not yet given out.
    private var reserved: ArraySlice<Int64> = []
    /// Inserts expected but not yet made: how many ids the next reservation takes.
    private var expected: Int
    private(set) var insertedIDs: [Int64] = []
    private(set) var insertedRows: [[StoredValue]] = []
    /// Changed column names → the rows changed in exactly those columns, and their new values.
    private(set) var updates: [[String]: (rowIDs: [Int64], values: [[StoredValue]])] = [:]
    private(set) var updateCount = 0
    private(set) var deletedIDs: [Int64] = []

    /// Rows kept before they are sent anyway: bounds the size of one statement's arrays (a
    /// migration copies a million rows in one batch).
    static let flushSize = 5_000

    init(_ entity: EntityDescription, expectedInserts: Int) {
        self.entity = entity
        expected = expectedInserts
    }

    /// The next id, or nil when the reservation is used up (``reserve(_:)`` first).
    func nextID() -> Int64? { reserved.popFirst() }

    /// How many ids the next reservation should take: what is still expected, within bounds.
    var reservationSize: Int { min(max(expected, 1), Self.flushSize) }

    func reserve(_ ids: [Int64]) { reserved = ids[...] }

    /// Whether the next insert is the last one expected and nothing is kept yet that must go before
    /// it (a delete, an insert): it may then be sent alone, at once.
    var insertsAlone: Bool { expected <= 1 && insertedRows.isEmpty && deletedIDs.isEmpty }

    /// Counts an insert sent alone.
    func insertedAlone() { expected = max(expected - 1, 0) }

    func insert(_ values: [StoredValue], id: Int64) {
        insertedIDs.append(id)
        insertedRows.append(values)
        expected = max(expected - 1, 0)
    }

    func update(rowID: Int64, columns: [String], values: [StoredValue]) {
        updates[columns, default: ([], [])].rowIDs.append(rowID)
        updates[columns, default: ([], [])].values.append(values)
        updateCount += 1
    }

    func delete(rowID: Int64) { deletedIDs.append(rowID) }

    var isFull: Bool { insertedRows.count + updateCount + deletedIDs.count >= Self.flushSize }

    /// Forgets what was sent (the reservation stays).
    func clear() {
        (insertedIDs, insertedRows, updates, updateCount, deletedIDs) = ([], [], [:], 0, [])
    }
}
