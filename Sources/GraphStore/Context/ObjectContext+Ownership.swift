extension ObjectContext {
    /// Fails a save before it touches anything when a pending to-one points at an object of another
    /// context (or of none): its row there may be unsaved, or saved with other values, and writing
    /// the link would store a dangling or NULL key.
    ///
    /// Only assigned to-ones can hold such a link (``ToOne`` keeps a foreign destination on its own
    /// side only), so this reads one pointer per to-one of each changed object.
    func checkDestinationsAreOwned() throws {
        for object in insertedObjects + updatedObjects + deletedObjects {
            for relationship in object.entity.toOneRelationships {
                let toOne = object.toOne(relationship.slot)
                guard toOne.isAssigned, let destination = toOne.loadedDestination, destination.context !== self else { continue }
                throw GraphStoreError.foreignObject(destination.objectID)
            }
        }
    }
}
