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
        guard let inverse = try entity(for: Owner.self).relationship(named: name)?.inverseName else { return [:] }
        let counts = try read { try $0.groupCounts(entity: Member.entityName, column: inverse) }
        let owner = Owner.cachedEntityName
        return Dictionary(uniqueKeysWithValues: counts.map { (ObjectID.permanent(owner, $0.key), $0.value) })
    }
}
