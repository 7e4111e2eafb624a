import Foundation
import PhotoSyncTestSupport
import Testing

/// The built `photosync` binary in its own temporary directory (see `BinarySandbox`).
typealias PhotoSync = BinarySandbox

// MARK: - Feed fixtures

/// One photo item as the feed sends it.
struct FeedItem: Sendable {
    var id: String
    var owner: String
    var title: String
    var description: String = ""
    var dateUpload: String = "1700000000"
    var ownerID: String = "1@N01"
    var imageURL: String? = nil
    /// More keys of the item as sent: the metadata extras (`license`, `datetaken`, `latitude`, …).
    var extras: [String: any Sendable] = [:]

    init(_ id: String, by owner: String, title: String, description: String = "", uploaded: String = "1700000000") {
        self.id = id
        self.owner = owner
        self.title = title
        self.description = description
        self.dateUpload = uploaded
        self.ownerID = Self.ownerID(for: owner)
        self.imageURL = "https://live.example.test/\(id)_l.jpg"
    }

    /// The same NSID for the same name in every run (`hashValue` is seeded per process, and its
    /// last three digits collided): the seeded generator, seeded with the name's FNV-1a hash.
    static func ownerID(for owner: String) -> String {
        var generator = SeededRandom(seed: owner.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 })
        return "\(generator.next() % 10_000_000_000)@N01"
    }

    var json: [String: Any] {
        var object: [String: Any] = [
            "id": id, "owner": ownerID, "ownername": owner, "title": title,
            "description": ["_content": description], "dateupload": dateUpload,
            "server": "65535", "secret": "abc", "ispublic": 1,
        ]
        if let imageURL { object["url_l"] = imageURL }
        return object.merging(extras.mapValues { $0 as Any }) { _, extra in extra }
    }
}

enum Feed {
    /// One page of `flickr.photos.getRecent` JSON.
    static func page(_ number: Int, of pages: Int, perPage: Int, total: Int, _ items: [FeedItem]) -> String {
        let object: [String: Any] = [
            "photos": [
                "page": number, "pages": pages, "perpage": perPage, "total": total,
                "photo": items.map(\.json),
            ] as [String: Any],
            "stat": "ok",
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Pages of `perPage` items each, keyed by page number.
    static func pages(_ items: [FeedItem], perPage: Int) -> [Int: String] {
        let chunks = stride(from: 0, to: items.count, by: perPage).map { Array(items[$0..<min($0 + perPage, items.count)]) }
        var result: [Int: String] = [:]
        for (index, chunk) in chunks.enumerated() {
            result[index + 1] = page(index + 1, of: chunks.count, perPage: perPage, total: items.count, chunk)
        }
        return result
    }

    static let path = "/rest"
}

extension TestHTTPServer {
    /// Serves `pages` on `Feed.path` by the `page` query parameter (404 for unknown pages).
    func serveFeed(_ pages: [Int: String]) {
        route(Feed.path) { request in
            guard let number = request.query["page"].flatMap(Int.init), let body = pages[number] else { return .status(404) }
            return .text(body, headers: ["Content-Type": "application/json"])
        }
    }

    var feedURL: String { url(Feed.path) }

    /// Page numbers requested so far on `Feed.path`, in order.
    var requestedPages: [Int] {
        requests(to: Feed.path).compactMap { $0.query["page"].flatMap(Int.init) }
    }
}

/// The two kinds of catalog: end-to-end tests where the store matters run on both.
enum CatalogKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// Runs `body` with a fresh sandbox (its catalog of `kind`) and a running server, cleaning both up.
/// The sandbox is made and removed off the cooperative pool (`psql` for a PostgreSQL catalog).
func withSandbox<T>(_ kind: CatalogKind = .sqlite, _ body: (PhotoSync, TestHTTPServer) async throws -> T) async throws -> T {
    let sandbox = try await PhotoSync.made(postgres: kind == .postgres, environment: PhotoSync.inProcessServerEnvironment)
    do {
        let result = try await TestHTTPServer.withRunning { server in try await body(sandbox, server) }
        await sandbox.removed()
        return result
    } catch {
        await sandbox.removed()
        throw error
    }
}

/// The JSON array of objects in `result`'s stdout.
func jsonArray(_ result: PhotoSync.Result) throws -> [[String: Any]] {
    try #require(try result.json() as? [[String: Any]], "stdout is not a JSON array of objects: \(result)")
}

func jsonObject(_ result: PhotoSync.Result) throws -> [String: Any] {
    try #require(try result.json() as? [String: Any], "stdout is not a JSON object: \(result)")
}
