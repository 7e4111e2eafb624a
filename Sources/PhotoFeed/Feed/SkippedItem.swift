/// A `photo` array element that could not be used; the rest of its page still is.
public struct SkippedItem: Sendable, Equatable {
    /// Zero-based position in the page's `photo` array.
    public var index: Int
    /// Names the element and the field, e.g. "photo 3: missing id".
    public var reason: String

    public init(index: Int, reason: String) {
        self.index = index
        self.reason = reason
    }
}
