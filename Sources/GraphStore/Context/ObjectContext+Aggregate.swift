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
        let name = FetchPredicate<Owner>.relationshipName(relationship)
        let owner = try entity(for: Owner.self)
        guard let description = owner.relationship(named: name), let inverse = description.inverseName else { return [:] }
        // A many-to-many counts its join rows per owner.
        let join = JoinTable.of(description, in: owner)
        let counts = try read { try $0.groupCounts(entity: join?.entity.name ?? Member.entityName, column: join?.ownerColumn ?? inverse) }
        return Dictionary(uniqueKeysWithValues: counts.map { (ObjectID.permanent(owner.name, $0.key), $0.value) })
    }
}
