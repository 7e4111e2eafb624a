extension ObjectContext {
    /// The number of members of a to-many relationship for every object that has any, in one
    /// grouped query (no object is loaded), keyed by the owner's ID.
    ///
    /// ```swift
    /// let counts = try context.memberCounts(\Photographer.$photos)
    /// ```
    public func memberCounts<Owner: ManagedObject, Member: ManagedObject>(
        _ relationship: KeyPath<Owner, ToMany<Member>>
    ) throws -> [ObjectID: Int] {
        guard let (owner, table, column) = try memberColumn(relationship) else { return [:] }
        let counts = try read { try $0.groupCounts(entity: table, column: column) }
        return Dictionary(uniqueKeysWithValues: counts.map { (ObjectID.permanent(owner, $0.key), $0.value) })
    }

    /// The same for `owners` alone (those with no member are left out): a page of a list reads its
    /// rows' members through the index, not every member of every owner.
    public func memberCounts<Owner: ManagedObject, Member: ManagedObject>(
        _ relationship: KeyPath<Owner, ToMany<Member>>, of owners: [ObjectID]
    ) throws -> [ObjectID: Int] {
        guard let (owner, table, column) = try memberColumn(relationship) else { return [:] }
        let rowIDs = owners.compactMap { $0.entityName == owner ? $0.rowID : nil }
        guard !rowIDs.isEmpty else { return [:] }
        let counts = try read { try $0.groupCounts(entity: table, column: column, owners: rowIDs) }
        return Dictionary(uniqueKeysWithValues: counts.map { (ObjectID.permanent(owner, $0.key), $0.value) })
    }

    /// The owner's entity, and the table and column that point members at owners (a
    /// many-to-many's join rows, else the members' inverse to-one).
    private func memberColumn<Owner: ManagedObject, Member: ManagedObject>(
        _ relationship: KeyPath<Owner, ToMany<Member>>
    ) throws -> (owner: String, table: String, column: String)? {
        let name = FetchPredicate<Owner>.relationshipName(relationship)
        let owner = try entity(for: Owner.self)
        guard let description = owner.relationship(named: name), let inverse = description.inverseName else { return nil }
        let join = JoinTable.of(description, in: owner)
        return (owner.name, join?.entity.name ?? Member.entityName, join?.ownerColumn ?? inverse)
    }
}
