/// An update whose row as it was the caller read in the same transaction (an import session's
/// merge has it): a writer that records history then need not read it again (one query per
/// updated row on SQLite, where a first import of 100k updated 48k photographers).
extension StoreWriter {
    @discardableResult
    func update(_ entity: EntityDescription, rowID: Int64, columns: [String], values: [StoredValue], knownRow: [StoredValue]?) throws -> Bool {
        if let knownRow, let history = self as? HistoryWriter {
            return try history.update(entity, rowID: rowID, columns: columns, values: values, knownRow: knownRow)
        }
        return try update(entity, rowID: rowID, columns: columns, values: values)
    }
}
