/// The statements an entity's rows need, written once per store instead of once per row.
struct EntitySQL: Sendable {
    let select: String
    let insert: String
    let delete: String

    init(_ entity: EntityDescription) {
        let table = SQL.quote(entity.name)
        let columns = entity.columns.map(SQL.quote)
        select = "SELECT " + (["\"id\""] + columns).joined(separator: ", ") + " FROM " + table
        insert = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(SQL.placeholders(columns.count)))"
        delete = "DELETE FROM \(table) WHERE \"id\" = ?"
    }

    static func all(_ model: ManagedObjectModel) -> [String: EntitySQL] {
        Dictionary(uniqueKeysWithValues: model.entities.map { ($0.name, EntitySQL($0)) })
    }
}
