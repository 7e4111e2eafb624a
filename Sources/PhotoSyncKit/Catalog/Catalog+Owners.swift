import GraphStore

extension Catalog {
    /// A listed photo's photographer as `list` shows it.
    struct Owner {
        var name: String
        var ownerID: String
    }

    /// The photographers `ids` by object ID: looked up one by one when they are a page's few
    /// (`list --limit`, `/api/photos`: reading all 2,875 of the 1M catalog's photographers twice
    /// was most of a 100-photo page's 3 ms), else read whole.
    static func owners(_ ids: Set<ObjectID>, in context: ObjectContext) throws -> [ObjectID: Owner] {
        if ids.count <= 200 {
            return Dictionary(uniqueKeysWithValues: try ids.map { id in
                let photographer = try context.existingObject(with: id, as: Photographer.self)
                return (id, Owner(name: photographer.name, ownerID: photographer.ownerID))
            })
        }
        let rows = try context.fetchColumns(FetchRequest<Photographer>(), [\.$name, \.$ownerID])
        let (names, ownerIDs) = (try rows.values(\.$name), try rows.values(\.$ownerID))
        return Dictionary(uniqueKeysWithValues: rows.ids.indices.map { (rows.ids[$0], Owner(name: names[$0], ownerID: ownerIDs[$0])) })
    }
}
