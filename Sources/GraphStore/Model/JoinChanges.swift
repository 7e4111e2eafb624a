/// The members a many-to-many to-many linked and unlinked since the last save. The last change of
/// a member wins: the save then makes the join row exist or not, whatever the store held, so a link
/// made twice or an unlink of a pair never stored writes nothing.
struct JoinChanges<Element: AnyObject> {
    private(set) var linked = ObjectList<Element>()
    private(set) var unlinked = ObjectList<Element>()

    mutating func record(_ element: Element, linked isLinked: Bool) {
        forget(element)
        if isLinked { linked.append(element) } else { unlinked.append(element) }
    }

    mutating func forget(_ element: Element) {
        linked.remove(element)
        unlinked.remove(element)
    }
}
