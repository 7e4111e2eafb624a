/// A relationship (or attribute) of an entity by its wrapper slot: a dictionary key that hashes
/// two integers, where a key built of names costs a string concatenation and its hash for every
/// object a save walks.
struct EntitySlot: Hashable {
    let entity: ObjectIdentifier
    let slot: Int

    init(_ entity: EntityDescription, _ slot: Int) {
        self.entity = ObjectIdentifier(entity)
        self.slot = slot
    }
}
