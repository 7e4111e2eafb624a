import Foundation
import PhotoFeed

/// A page downloaded, decoded and then prepared (its import records built) on a thread of its own
/// while the previous page is saved: the saving thread only saves. The decoded page is available
/// first (``page()``), so the walk can ask for the next page while this one is still being
/// prepared. What deletes exclude is applied later, in the save's transaction (see
/// ``PreparedPage/excluding(_:)``): a download never reads the catalog.
final class PageDownload: @unchecked Sendable {
    // Each written once by the worker before its semaphore is signalled, read only after waiting on it.
    private var decoded: Result<FeedPage, PhotoSyncError>?
    private var records: PreparedPage?
    private let decodedSignal = DispatchSemaphore(value: 0)
    private let preparedSignal = DispatchSemaphore(value: 0)
    private var worker: WorkerThread?
    private var joined = false

    /// Starts downloading page `number`, its photos labelled `label` once prepared. A thread that
    /// cannot be started is an error (`.outOfMemory`, the run is recorded as failed), where
    /// libdispatch would wait for it forever.
    init(_ number: Int, from source: FeedSource, label: String) throws(PhotoSyncError) {
        worker = try WorkerThread(doing: "download page \(number)") {
            self.decoded = Result { () throws(PhotoSyncError) -> FeedPage in try source.page(number) }
            self.decodedSignal.signal()
            if case .success(let page) = self.decoded { self.records = PreparedPage(page, source: label) }
            self.preparedSignal.signal()
        }
    }

    deinit {
        if !joined { worker?.detach() }
    }

    /// The decoded page, as soon as it is (its records may still be in the making). Called once.
    func page() throws(PhotoSyncError) -> FeedPage {
        decodedSignal.wait()
        guard let decoded else { preconditionFailure("a page download signalled without a result") }
        return try decoded.get()
    }

    /// The prepared page, once the thread that made it has ended; after ``page()`` succeeded.
    func prepared() -> PreparedPage {
        preparedSignal.wait()
        worker?.join()
        joined = true
        guard let records else { preconditionFailure("prepared() asked of a page that failed to download") }
        return records
    }
}
