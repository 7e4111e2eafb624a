import Foundation
import PhotoSyncTestSupport
import Synchronization

/// `flickr.photos.search` as Flickr answers it: `min_upload_date` and `max_upload_date` applied
/// (both included), newest first, `total` the whole count, but only the first 4,000 results
/// served: a page past them repeats the last page within them.
final class SimulatedSearch: Sendable {
    static let cap = 4_000
    /// Upload time by photo number (numbers in upload order).
    let uploads: [Int]
    /// Every window (both bounds given) whose last page was served: walked to its end.
    private let finished = Mutex<[ClosedRange<Int>]>([])

    init(uploads: [Int]) { self.uploads = uploads.sorted() }

    var ids: Set<String> { Set(uploads.indices.map { "\($0 + 1)" }) }

    /// The windows served to their last page so far.
    var finishedWindows: [ClosedRange<Int>] { finished.withLock { $0 } }

    /// The upload times a request's window spans, when it gives both bounds.
    static func window(_ request: RecordedRequest) -> ClosedRange<Int>? {
        guard let low = request.query["min_upload_date"].flatMap(Int.init), let high = request.query["max_upload_date"].flatMap(Int.init),
              low <= high else { return nil }
        return low...high
    }

    func serve(on server: TestHTTPServer) {
        server.route(Feed.path) { request in
            let low = request.query["min_upload_date"].flatMap(Int.init) ?? Int.min
            let high = request.query["max_upload_date"].flatMap(Int.init) ?? Int.max
            let perPage = request.query["per_page"].flatMap(Int.init) ?? 100
            let matching = self.uploads.indices.reversed().filter { (low...high).contains(self.uploads[$0]) }
            let pages = (matching.count + perPage - 1) / perPage
            let servedPages = max(1, (min(matching.count, Self.cap) + perPage - 1) / perPage)
            let asked = request.query["page"].flatMap(Int.init) ?? 1
            let slice = min(asked, servedPages)
            let items = matching.dropFirst((slice - 1) * perPage).prefix(min(perPage, Self.cap - (slice - 1) * perPage)).map {
                FeedItem("\($0 + 1)", by: "Owner \($0 % 50)", title: "S\($0 + 1)", uploaded: "\(self.uploads[$0])")
            }
            if asked >= pages, let window = Self.window(request) { self.finished.withLock { $0.append(window) } }
            let page = Feed.page(asked, of: pages, perPage: perPage, total: matching.count, items)
            return .text(page, headers: ["Content-Type": "application/json"])
        }
    }
}
