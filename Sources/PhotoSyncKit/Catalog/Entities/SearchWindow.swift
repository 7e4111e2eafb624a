import Foundation
import GraphStore

/// A window of a search's upload times walked to its end (see ``UploadWindow``): later fetches of
/// the same query do not walk it again. A query the user changes is another source, with its own.
final class SearchWindow: ManagedObject {
    /// Bookkeeping, not catalog content: `changes` never shows it, so history does not keep it.
    override class var keepsHistory: Bool { false }
    /// The query (``FeedSource/identity``).
    @Attribute(.indexed) var source = ""
    /// Unix seconds, both included.
    @Attribute var from = 0
    @Attribute var to = 0
}
