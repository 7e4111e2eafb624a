/// The statements an entity's rows need, written once per store instead of once per row.
struct EntitySQL: Sendable {
    let select: String
    let insert: String
    let delete: String
    /// `UPDATE ... SET column = ? WHERE id = ?` for each single column: most updates change one.
    let updateOne: [String: String]
    let table: String

    init(_ entity: EntityDescription) {
        let table = SQL.quote(entity.name)
        let columns = entity.columns.map(SQL.quote)
        select = "SELECT " + (["\"id\""] + columns).joined(separator: ", ") + " FROM " + table
        insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(SQL.placeholders(columns.count)))"
        delete = "DELETE FROM \(table) WHERE \"id\" = ?"
        updateOne = Dictionary(uniqueKeysWithValues: entity.columns.map { ($0, "UPDATE \(table) SET \(SQL.quote($0)) = ? WHERE \"id\" = ?") })
        self.table = table
    }

    /// The UPDATE of `columns` of one row (the values, then the row id, bound in that order).
    func update(_ columns: [String]) -> String {
        if columns.count == 1, let text = updateOne[columns[0]] { return text }
        return "UPDATE \(table) SET \(columns.map { "\(SQL.quote($0)) = ?" }.joined(separator: ", ")) WHERE \"id\" = ?"
    }

    static func all(_ model: ManagedObjectModel) -> [String: EntitySQL] {
        Dictionary(uniqueKeysWithValues: model.storedEntities.map { ($0.name, EntitySQL($0)) })
    }
}
