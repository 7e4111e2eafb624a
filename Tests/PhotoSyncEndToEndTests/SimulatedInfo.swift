import Foundation
import PhotoSyncTestSupport

/// The simulated API: the feed's pages, `licenses.getInfo`, and `photos.getInfo` per photo id.
/// An id's answers are given in order (the last one stays); a held id's getInfo does not answer
/// until it is released (at most a minute), so a test can signal a re-check in flight.
final class SimulatedInfo: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: [String]] = [:]
    private var askedIDs: [String] = []
    private var held: Set<String> = []

    init(server: TestHTTPServer, pages: [Int: String]) {
        server.route(Feed.path) { [self] request in
            switch request.query["method"] {
            case "flickr.photos.getInfo":
                let body = info(request.query["photo_id"] ?? "")
                return .text(body, headers: ["Content-Type": "application/json"])
            case "flickr.photos.licenses.getInfo":
                return .text(#"{"licenses":{"license":[{"id":2,"name":"CC BY-NC 2.0","url":"https://creativecommons.org/licenses/by-nc/2.0/"},"#
                    + #"{"id":4,"name":"CC BY 2.0","url":"https://creativecommons.org/licenses/by/2.0/"}]},"stat":"ok"}"#)
            default:
                guard let number = request.query["page"].flatMap(Int.init), let body = pages[number] else { return .status(404) }
                return .text(body, headers: ["Content-Type": "application/json"])
            }
        }
    }

    /// getInfo's answers for `id`, one per call in order; the last answers every later call.
    func answer(_ id: String, _ bodies: String...) { lock.withLock { answers[id] = bodies } }

    /// getInfo for `id` waits (on the server's thread for that connection) until ``release(_:)``.
    func hold(_ id: String) { _ = lock.withLock { held.insert(id) } }

    func release(_ id: String) { _ = lock.withLock { held.remove(id) } }

    var asked: [String] { lock.withLock { askedIDs } }

    private func info(_ id: String) -> String {
        let body = lock.withLock {
            askedIDs.append(id)
            guard var queue = answers[id], let first = queue.first else { return Self.failure(1, "Photo not found") }
            if queue.count > 1 { queue.removeFirst() }
            answers[id] = queue
            return first
        }
        for _ in 0..<600 where lock.withLock({ held.contains(id) }) { usleep(100_000) }
        return body
    }

    /// getInfo's answer: nested owner, title, dates and tags, as Flickr sends them.
    static func photo(_ id: String, by owner: String, title: String, license: String? = nil, tags: [String]? = nil) -> String {
        var photo: [String: Any] = [
            "id": id, "secret": "abc", "server": "65535", "dateuploaded": "1700000000",
            "owner": ["nsid": FeedItem.ownerID(for: owner), "username": owner, "realname": ""],
            "title": ["_content": title], "description": ["_content": ""], "dates": ["posted": "1700000000"],
        ]
        if let license { photo["license"] = license }
        if let tags { photo["tags"] = ["tag": tags.map { ["_content": $0, "raw": $0] }] }
        let data = try! JSONSerialization.data(withJSONObject: ["photo": photo, "stat": "ok"], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    static func failure(_ code: Int, _ message: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: ["stat": "fail", "code": code, "message": message], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
