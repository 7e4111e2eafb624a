import Foundation
import PhotoSyncTestSupport
import Synchronization

/// A recent feed that grows on top between runs, the way `flickr.photos.getRecent` does: photos
/// numbered in upload order (photo n uploaded n minutes after a base time), served newest first,
/// `perPage` a page; asked for a page past the end, it answers with its last page, as Flickr does.
final class GrowingFeed: Sendable {
    let perPage: Int
    private let newest: Mutex<Int>
    /// Photos taken off the feed (deleted, or made private).
    private let removed = Mutex<Set<Int>>([])
    /// Pages answered with something other than the page (to hold a fetch at a page): page number → response.
    private let held = Mutex<[Int: TestResponse]>([:])

    init(photos: Int, perPage: Int) {
        newest = Mutex(photos)
        self.perPage = perPage
    }

    /// Pushes `count` new photos on top of the feed.
    func push(_ count: Int) { newest.withLock { $0 += count } }

    /// Takes `numbers` off the feed: the photos below move up.
    func remove(_ numbers: ClosedRange<Int>) { removed.withLock { $0.formUnion(numbers) } }

    /// Every photo number the feed serves, newest first.
    private var served: [Int] {
        let gone = removed.withLock { $0 }
        return (1...newest.withLock { $0 }).reversed().filter { !gone.contains($0) }
    }

    /// Every photo id the feed serves, newest first.
    var ids: [String] { served.map(String.init) }

    /// Answers page `number` with `response` until `release`.
    func hold(page number: Int, with response: TestResponse) { held.withLock { $0[number] = response } }
    func release() { held.withLock { $0.removeAll() } }

    static func item(_ number: Int) -> FeedItem {
        FeedItem("\(number)", by: "Owner \(number % 7)", title: "P\(number)", uploaded: "\(1_700_000_000 + number * 60)")
    }

    func serve(on server: TestHTTPServer) {
        server.route(Feed.path) { request in
            let asked = request.query["page"].flatMap(Int.init) ?? 1
            if let response = self.held.withLock({ $0[asked] }) { return response }
            let served = self.served
            let pages = max(1, (served.count + self.perPage - 1) / self.perPage)
            let number = min(asked, pages)
            let items = served.dropFirst((number - 1) * self.perPage).prefix(self.perPage).map(Self.item)
            let page = Feed.page(number, of: pages, perPage: self.perPage, total: served.count, items)
            return .text(page, headers: ["Content-Type": "application/json"])
        }
    }
}
