/// Objects in insertion order with constant-time membership by identity: a to-many's members
/// (a photographer with thousands of photos gains one per insert without a linear scan).
///
/// Removal is amortized constant time too: a removed element stays in the array, marked, until
/// ``compact()`` or the next read of ``elements`` drops every marked one in one pass. Deleting
/// 24,000 of a photographer's photos takes each out of the photographer's list; removing each
/// with its own scan of the array made that delete quadratic (issue 24).
struct ObjectList<Element: AnyObject> {
    private var storage: [Element] = []
    /// The elements that are members: those in `storage` not marked removed.
    private var identities: Set<ObjectIdentifier> = []
    /// Elements still in `storage` but removed (none is in `identities`).
    private var removed: Set<ObjectIdentifier> = []

    init() {}

    init(_ elements: [Element]) {
        for element in elements { append(element) }
    }

    /// The members in insertion order. Filters out removed elements when some are still marked:
    /// call ``compact()`` first on a hot path.
    var elements: [Element] {
        removed.isEmpty ? storage : storage.filter { !removed.contains(ObjectIdentifier($0)) }
    }

    var isEmpty: Bool { identities.isEmpty }

    var count: Int { identities.count }

    func contains(_ element: Element) -> Bool { identities.contains(ObjectIdentifier(element)) }

    mutating func append(_ element: Element) {
        let identity = ObjectIdentifier(element)
        guard identities.insert(identity).inserted else { return }
        // Back after a removal: its old place goes first, so it is listed once, at the end.
        if removed.contains(identity) { compact() }
        storage.append(element)
    }

    mutating func remove(_ element: Element) {
        let identity = ObjectIdentifier(element)
        guard identities.remove(identity) != nil else { return }
        if storage.last === element {
            storage.removeLast()
        } else {
            removed.insert(identity)
        }
    }

    /// Drops the removed elements from the array, in one pass.
    mutating func compact() {
        guard !removed.isEmpty else { return }
        storage.removeAll { removed.contains(ObjectIdentifier($0)) }
        removed = []
    }
}
