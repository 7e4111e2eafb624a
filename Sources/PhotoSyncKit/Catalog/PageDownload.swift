import Foundation
import PhotoFeed

/// A page downloaded, decoded and prepared (its import records built) on a thread of its own while
/// the previous page is saved: the saving thread only saves. What deletes exclude is applied later,
/// in the save's transaction (see ``PreparedPage/excluding(_:)``), so a download never reads the
/// catalog.
final class PageDownload: @unchecked Sendable {
    // Written once by the worker before `done` is signalled, read only after waiting on it.
    private var result: Result<PreparedPage, PhotoSyncError>?
    private let done = DispatchSemaphore(value: 0)
    private var worker: WorkerThread?
    private var joined = false

    /// Starts downloading page `number`, its photos labelled `label` once prepared. A thread that
    /// cannot be started is an error (`.outOfMemory`, the run is recorded as failed), where
    /// libdispatch would wait for it forever.
    init(_ number: Int, from source: FeedSource, label: String) throws(PhotoSyncError) {
        worker = try WorkerThread(doing: "download page \(number)") {
            self.result = Result { () throws(PhotoSyncError) -> PreparedPage in
                PreparedPage(try source.page(number), source: label)
            }
            self.done.signal()
        }
    }

    deinit {
        if !joined { worker?.detach() }
    }

    /// The prepared page, once the thread that made it has ended.
    func wait() throws(PhotoSyncError) -> PreparedPage {
        done.wait()
        worker?.join()
        joined = true
        return try result!.get()
    }
}
