/// The stored rows an import pass found for one table's keys, read column by column (no array per
/// row), plus the rows its session remembered. Only the columns the policy needs are read: under
/// store-trump a stored row keeps its values, so only its key and foreign keys are.
struct FoundRows {
    private(set) var rowIDs: [Int64] = []
    /// Values by entity column (``EntityDescription/columns`` order); a column not read is empty.
    private var columns: [[StoredValue]]
    /// Each group's row, or -1.
    private(set) var rowOfGroup: [Int32]

    init(groups: Int, columns: Int) {
        self.columns = Array(repeating: [], count: columns)
        rowOfGroup = Array(repeating: -1, count: groups)
    }

    func row(ofGroup group: Int) -> Int? { rowOfGroup[group] < 0 ? nil : Int(rowOfGroup[group]) }
    func value(_ row: Int, _ column: Int) -> StoredValue { columns[column][row] }
    var isEmpty: Bool { rowIDs.isEmpty }

    /// The full stored values of `row` (every column was read).
    func values(_ row: Int) -> [StoredValue] { columns.map { $0[row] } }

    /// The row as the store holds it, when every column was read from the store in this
    /// transaction (not remembered from an earlier one): what history records as before.
    func storedValues(_ row: Int) -> [StoredValue]? {
        isRemembered(row) || columns.contains(where: \.isEmpty) ? nil : values(row)
    }

    /// Rows that came from the session's memory (``add(_:group:)``) rather than the store: the first ones.
    private(set) var rememberedCount = 0

    func isRemembered(_ row: Int) -> Bool { row < rememberedCount }

    /// Adds a row the session remembered; all of them come before the rows ``read(_:of:allColumns:_:)`` finds.
    mutating func add(_ row: StoredRow, group: Int) {
        precondition(rowIDs.count == rememberedCount, "remembered rows are added before any is read")
        rememberedCount += 1
        rowOfGroup[group] = Int32(rowIDs.count)
        rowIDs.append(row.rowID)
        for column in columns.indices { columns[column].append(row.values[column]) }
    }

    /// Reads the rows of `groups` (their keys in `table`) in batches of 500 keys.
    mutating func read(_ groups: [Int], of table: RecordTable, allColumns: Bool, _ reader: any StoreReader) throws {
        let entity = table.entity
        let wanted = allColumns ? Array(entity.columns.indices) : [table.keyIndex] + (0..<table.linkCount).map { table.width + $0 }
        let names = wanted.map { entity.columns[$0] }
        for chunk in groups.chunked(by: 500) {
            let found = try reader.lookUp(entity, keyColumn: entity.columns[table.keyIndex], keys: chunk.map { table.keys[$0] }, columns: names)
            for (offset, rowID) in found.columns.rowIDs.enumerated() where found.positions[offset] >= 0 {
                rowOfGroup[chunk[chunk.startIndex + found.positions[offset]]] = Int32(rowIDs.count)
                rowIDs.append(rowID)
                for (position, column) in wanted.enumerated() { columns[column].append(found.columns.values[position][offset]) }
            }
        }
    }
}
