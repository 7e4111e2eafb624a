/// Objects in insertion order with constant-time membership by identity: a to-many's members
/// (a photographer with thousands of photos gains one per insert without a linear scan).
struct ObjectList<Element: AnyObject> {
    private(set) var elements: [Element] = []
    private var identities: Set<ObjectIdentifier> = []

    init() {}

    init(_ elements: [Element]) {
        for element in elements { append(element) }
    }

    var isEmpty: Bool { elements.isEmpty }

    func contains(_ element: Element) -> Bool { identities.contains(ObjectIdentifier(element)) }

    mutating func append(_ element: Element) {
        guard identities.insert(ObjectIdentifier(element)).inserted else { return }
        elements.append(element)
    }

    mutating func remove(_ element: Element) {
        guard identities.remove(ObjectIdentifier(element)) != nil else { return }
        elements.removeAll { $0 === element }
    }
}
