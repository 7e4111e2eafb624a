import Dispatch
import GraphStore

/// Releases a finished page's context on a background queue.
///
/// Freeing a page's objects (each with its property wrappers, value arrays and relationship sets)
/// was about a tenth of the saving thread's work; done here, it overlaps with the next page's save.
/// The caller hands over its last reference and never touches the context or its objects again.
enum BackgroundRelease {
    private static let queue = DispatchQueue(label: "photosync.release", qos: .utility)

    static func release(_ context: consuming ObjectContext) {
        let handOver = HandOver(context)
        queue.async { handOver.drop() }
    }

    /// Waits until every context handed over is gone. A context holds its container, and so the
    /// store's connections: a catalog is closed (its WAL file checkpointed away) only after this.
    static func finish() {
        queue.sync {}
    }

    /// The last reference to a context, moved to the release queue (which is why it may cross threads).
    private final class HandOver: @unchecked Sendable {
        private var context: ObjectContext?
        init(_ context: ObjectContext) { self.context = context }
        func drop() { context = nil }
    }
}
