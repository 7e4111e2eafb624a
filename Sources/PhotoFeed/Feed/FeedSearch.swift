/// The terms of a `flickr.photos.search` call: whose photos (`user_id`), with which tags, matching
/// which text. Unset terms are not sent.
public struct FeedSearch: Sendable, Equatable, Hashable {
    public var user: String?
    public var tags: String?
    public var text: String?

    public init(user: String? = nil, tags: String? = nil, text: String? = nil) {
        (self.user, self.tags, self.text) = (user, tags, text)
    }

    /// No term set: Flickr refuses such a search ("parameterless searches have been disabled").
    public var isEmpty: Bool { [user, tags, text].allSatisfy { ($0 ?? "").isEmpty } }

    /// These terms, with unset ones taken from `lower`.
    public func overriding(_ lower: FeedSearch) -> FeedSearch {
        FeedSearch(user: user ?? lower.user, tags: tags ?? lower.tags, text: text ?? lower.text)
    }

    /// The query parameters as sent, in a fixed order (also a search's identity).
    public var parameters: [(name: String, value: String)] {
        [("user_id", user), ("tags", tags), ("text", text)].compactMap { name, value in
            guard let value, !value.isEmpty else { return nil }
            return (name, value)
        }
    }
}
