/// Reading a snapshot written in an earlier storage format.
extension SchemaSnapshot {
    /// A column whose stored values a format upgrade converts.
    struct ColumnName: Equatable {
        let table: String
        let column: String
    }

    /// This snapshot as the current format describes the same file, with the columns whose values
    /// must be converted for that to be true. The first format did not mark dates: a `REAL` column
    /// that `current` declares a `Date` is taken for one, stored as seconds since 1970.
    func upgradingFormat(to current: SchemaSnapshot) -> (snapshot: SchemaSnapshot, legacyDates: [ColumnName]) {
        guard format == nil else { return (self, []) }
        var upgraded = self
        upgraded.format = current.format
        var legacyDates: [ColumnName] = []
        for tableIndex in upgraded.tables.indices {
            let table = upgraded.tables[tableIndex]
            guard let model = current.table(named: table.name) else { continue }
            for (columnIndex, column) in table.columns.enumerated() where column.type == .real {
                guard let declared = model.columns.first(where: { $0.name == column.name }), declared.isDate == true,
                    declared.type == .real
                else { continue }
                upgraded.tables[tableIndex].columns[columnIndex].isDate = true
                // The DDL default served only the migration that added the column (inserts name
                // every column): the 1970 literal it holds is not read again.
                upgraded.tables[tableIndex].columns[columnIndex].defaultValue = declared.defaultValue
                legacyDates.append(ColumnName(table: table.name, column: column.name))
            }
        }
        return (upgraded, legacyDates)
    }
}
