extension ObjectContext {
    /// Fails a save before it touches anything when a pending to-one points at an object of another
    /// context (or of none): its row there may be unsaved, or saved with other values, and writing
    /// the link would store a dangling or NULL key.
    ///
    /// Only assigned to-ones can hold such a link (``ToOne`` keeps a foreign destination on its own
    /// side only), so this reads one pointer per to-one of each changed object.
    func checkDestinationsAreOwned() throws {
        for object in insertedObjects + updatedObjects + deletedObjects {
            for slot in object.entity.toOneSlots {
                let toOne = object.toOne(slot)
                guard toOne.isAssigned, let destination = toOne.loadedDestination, destination.context !== self else { continue }
                throw GraphStoreError.foreignObject(destination.objectID)
            }
            try checkPartnersAreOwned(object)
        }
    }

    /// The same for a many-to-many pair linked or unlinked since the last save (an object of
    /// another context, or of none, keeps such a link on this side only).
    private func checkPartnersAreOwned(_ object: ManagedObject) throws {
        for relationship in object.entity.manyToManyRelationships {
            let toMany = object.toMany(relationship.slot)
            let isForeign = { (partner: ManagedObject) in partner.context !== self }
            if let foreign = toMany.linkedSinceSave.first(where: isForeign) ?? toMany.unlinkedSinceSave.first(where: isForeign) {
                throw GraphStoreError.foreignObject(foreign.objectID)
            }
        }
    }
}
