import Foundation
import PhotoSyncTestSupport
import Synchronization
import Testing

/// The metadata users keep (issue 25, part 3): license with its name from `licenses.getInfo`
/// (asked once, again only for an unknown id), date taken as given, geo, last update, views,
/// media, the owner's NSID and (in `show`) the image sizes, in `list` and `show` JSON,
/// `list --license`, and edits by `lastupdate`; on both stores.
@Suite("the metadata users keep", .onTestThreads)
struct MetadataTests {
    static let getInfo = "flickr.photos.licenses.getInfo"
    static let licenses = #"{"licenses":{"license":[{"id":0,"name":"All Rights Reserved","url":""},"#
        + #"{"id":"4","name":"Attribution License","url":"https://creativecommons.org/licenses/by/2.0/"}]},"stat":"ok"}"#
    /// The list after Flickr added a license (as it added CC 4.0 in 2025).
    static let licensesLater = #"{"licenses":{"license":[{"id":0,"name":"All Rights Reserved","url":""},"#
        + #"{"id":"4","name":"Attribution License","url":"https://creativecommons.org/licenses/by/2.0/"},"#
        + #"{"id":"11","name":"CC BY 4.0","url":"https://creativecommons.org/licenses/by/4.0/"}]},"stat":"ok"}"#

    /// Photo 1 with every extra; 2 with 0/0 geo, a video, views and a date taken that are unusable;
    /// 3 with none.
    static func items(
        lastUpdate: String = "1714564800", title: String = "Harbour", tags1: String = "Sea harbour Lisboa! sea", license3: String? = nil
    ) -> [FeedItem] {
        var one = FeedItem("1", by: "Ana Lima", title: title, uploaded: "1714000000")
        one.extras = ["license": "4", "datetaken": "2024-04-30 18:05:00", "datetakengranularity": "0", "latitude": "38.7223",
                      "longitude": -9.1393, "lastupdate": lastUpdate, "views": "12", "media": "photo", "tags": tags1,
                      "url_sq": "https://live.example.test/1_sq.jpg", "width_sq": 75, "height_sq": "75", "width_l": "1024", "height_l": 683,
                      "url_o": "https://live.example.test/1_o.jpg", "width_o": "huge", "url_z": "javascript:alert(1)"]
        var two = FeedItem("2", by: "Bo", title: "Dusk", uploaded: "1713000000")
        two.extras = ["tags": "sea", "license": 0, "datetaken": "2024-01-01 \u{1B}[31m", "latitude": 0, "longitude": "0", "views": "many", "media": "video"]
        var three = FeedItem("3", by: "Bo", title: "Fog", uploaded: "1712000000")
        if let license3 { three.extras = ["license": license3] }
        return [one, two, three]
    }

    /// Serves `items` as one page, and the license list `licenses` holds to `licenses.getInfo`.
    final class MetadataFeed: Sendable {
        let items: Mutex<[FeedItem]>
        let licenses: Mutex<String>

        init(_ items: [FeedItem], licenses: String) {
            self.items = Mutex(items)
            self.licenses = Mutex(licenses)
        }

        func serve(on server: TestHTTPServer) {
            server.route(Feed.path) { request in
                if request.query["method"] == getInfo { return .text(self.licenses.withLock { $0 }, headers: ["Content-Type": "application/json"]) }
                let page = self.items.withLock { Feed.page(1, of: 1, perPage: 100, total: $0.count, $0) }
                return .text(page, headers: ["Content-Type": "application/json"])
            }
        }
    }

    static func listed(_ photosync: PhotoSync, _ extra: String...) async throws -> [String: [String: Any]] {
        let list = try await photosync.run(["list", "--format", "json"] + extra + ["--db", photosync.db])
        #expect(list.status == 0, "\(list)")
        return Dictionary(uniqueKeysWithValues: try jsonArray(list).map { ($0["id"] as? String ?? "", $0) })
    }

    @Test(arguments: CatalogKind.allCases)
    func licenseTakenGeoViewsAndMediaAreKept(_ kind: CatalogKind) async throws {
        try await withSandbox(kind) { photosync, server in
            let feed = MetadataFeed(Self.items(), licenses: Self.licenses)
            feed.serve(on: server)
            let asked = { server.requests(to: Feed.path).filter { $0.query["method"] == Self.getInfo }.count }
            let first = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(first.status == 0, "\(first)")
            #expect(asked() == 1, "the license names are asked for once")
            try await expectInvariants(photosync)

            let photos = try await Self.listed(photosync)
            let one = try #require(photos["1"]), two = try #require(photos["2"]), three = try #require(photos["3"])
            let license = try #require(one["license"] as? [String: Any])
            #expect(license["id"] as? String == "4" && license["name"] as? String == "Attribution License"
                && license["url"] as? String == "https://creativecommons.org/licenses/by/2.0/", "\(license)")
            #expect(one["taken"] as? String == "2024-04-30 18:05:00", "as Flickr sent it, not shifted to UTC")
            #expect(one["latitude"] as? Double == 38.7223 && one["longitude"] as? Double == -9.1393)
            #expect(one["last_update"] as? String == "2024-05-01T12:00:00Z" && one["views"] as? Int == 12 && one["media"] as? String == "photo")
            #expect(one["owner_id"] as? String == FeedItem.ownerID(for: "Ana Lima"))
            #expect((two["license"] as? [String: Any])?["name"] as? String == "All Rights Reserved")
            #expect(two["latitude"] is NSNull && two["longitude"] is NSNull, "0/0 is Flickr's no location")
            #expect(two["taken"] is NSNull && two["views"] is NSNull && two["media"] as? String == "video")
            for key in ["license", "taken", "latitude", "longitude", "last_update", "views", "media"] {
                #expect(three[key] is NSNull, "\(key) of a photo sent without extras")
            }
            #expect(try await Self.listed(photosync, "--license", "4").keys.sorted() == ["1"])
            #expect(try await Self.listed(photosync, "--license", "0").keys.sorted() == ["2"])
            #expect(one["tags"] as? [String] == ["harbour", "lisboa", "sea"] && two["tags"] as? [String] == ["sea"]
                && three["tags"] as? [String] == [], "normalized, sorted, once each")
            #expect(try await Self.listed(photosync, "--tag", "SEA").keys.sorted() == ["1", "2"], "matched as Flickr normalizes")
            #expect(try await Self.listed(photosync, "--tag", "sea", "--tag", "Harbour").keys.sorted() == ["1"], "every tag given")
            let show = try jsonObject(try await photosync("show", "1", "--format", "json"))
            #expect(show["taken"] as? String == "2024-04-30 18:05:00", "\(show)")
            let sizes = try #require(show["sizes"] as? [String: [String: Any]], "\(show)")
            #expect(sizes.keys.sorted() == ["l", "o", "sq"], "only the sizes given, a javascript: URL refused: \(sizes)")
            #expect(sizes["sq"]?["url"] as? String == "https://live.example.test/1_sq.jpg" && sizes["sq"]?["width"] as? Int == 75
                && sizes["sq"]?["height"] as? Int == 75)
            #expect(sizes["l"]?["width"] as? Int == 1024 && sizes["l"]?["height"] as? Int == 683)
            #expect(sizes["o"]?["width"] is NSNull && sizes["o"]?["height"] is NSNull)

            // The same feed again: nothing new, no second license call.
            let again = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(try jsonObject(again)["unchanged"] as? Int == 3 && asked() == 1, "\(again)")

            // An edit (a newer lastupdate) is an update; a license id never seen has the list asked again.
            feed.items.withLock { $0 = Self.items(lastUpdate: "1714568400", title: "Harbour at dusk", tags1: "sea fog", license3: "11") }
            feed.licenses.withLock { $0 = Self.licensesLater }
            let edited = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(try jsonObject(edited)["updated"] as? Int == 2, "\(edited)")
            #expect(asked() == 2)
            try await expectInvariants(photosync)
            let after = try await Self.listed(photosync)
            #expect(after["1"]?["title"] as? String == "Harbour at dusk" && after["1"]?["last_update"] as? String == "2024-05-01T13:00:00Z")
            #expect((after["3"]?["license"] as? [String: Any])?["name"] as? String == "CC BY 4.0")
            #expect(after["1"]?["tags"] as? [String] == ["fog", "sea"])
            #expect(try await Self.listed(photosync, "--tag", "harbour").isEmpty, "a tag the feed dropped is unlinked")
            #expect(try await Self.listed(photosync, "--tag", "fog").keys.sorted() == ["1"])
        }
    }
}
