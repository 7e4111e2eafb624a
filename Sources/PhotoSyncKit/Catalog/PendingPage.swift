import Foundation
import PhotoFeed
import Synchronization

/// A page being downloaded and decoded on another thread while the previous one is saved, and
/// prepared there too unless the saving thread is already waiting for it: then it is handed over
/// decoded, and the saving thread prepares it while the next page downloads. (A re-import saves
/// faster than a page decodes: preparing on the download thread kept the saving thread idle.)
final class PendingPage: @unchecked Sendable {
    // Written once by the worker before `done` is signalled, read only after waiting on it.
    private var result: Result<ArrivingPage, PhotoSyncError>?
    private let done = DispatchSemaphore(value: 0)
    private let awaited = Mutex(false)
    private var worker: WorkerThread?
    private var joined = false

    /// Downloads page `number` and prepares it with `prepare` (which reads the catalog's exclusions),
    /// on a thread of its own: one that cannot be started is an error (`.outOfMemory`, the run is
    /// recorded as failed), where libdispatch would wait for it forever.
    init(_ number: Int, from source: FeedSource, prepare: @escaping @Sendable (FeedPage) throws(PhotoSyncError) -> PreparedPage) throws(PhotoSyncError) {
        worker = try WorkerThread(doing: "download page \(number)") {
            self.result = Result { () throws(PhotoSyncError) -> ArrivingPage in
                let page = try source.page(number)
                return self.awaited.withLock { $0 } ? .decoded(page) : .prepared(try prepare(page))
            }
            self.done.signal()
        }
    }

    deinit {
        if !joined { worker?.detach() }
    }

    /// The page, once the thread that made it has ended.
    func wait() throws(PhotoSyncError) -> ArrivingPage {
        awaited.withLock { $0 = true }
        done.wait()
        worker?.join()
        joined = true
        return try result!.get()
    }
}

/// A downloaded page, prepared for saving or still to be (see ``PendingPage``).
enum ArrivingPage {
    case decoded(FeedPage)
    case prepared(PreparedPage)

    var page: FeedPage {
        switch self {
        case .decoded(let page): page
        case .prepared(let prepared): prepared.page
        }
    }

    func prepared(by prepare: (FeedPage) throws(PhotoSyncError) -> PreparedPage) throws(PhotoSyncError) -> PreparedPage {
        switch self {
        case .decoded(let page): try prepare(page)
        case .prepared(let prepared): prepared
        }
    }
}
