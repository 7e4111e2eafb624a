#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

@Suite(.onTestThreads) struct FeedDecoderFixtureTests {
    @Test func pageOneDecodesEveryPhoto() throws {
        let page = try FeedDecoder.decode(try fixture("recent-page-1.json"))
        #expect((page.page, page.pages, page.perPage, page.total) == (1, 3, 10, 27))
        #expect(page.photos.count == 10)
        #expect(page.skipped.isEmpty)
        let first = try #require(page.photos.first)
        var expected = FeedPhoto(
            id: "53412345678", title: "Sunset over Ipanema", subtitle: "Taken from Arpoador rock.",
            imageURL: "https://live.staticflickr.com/65535/53412345678_a1b2c3d4e5_b.jpg",
            uploaded: Date(timeIntervalSince1970: 1_717_000_000), ownerID: "52755911@N03", ownerName: "Ana Lima"
        )
        // `url_l` with `width_l` as a string and `height_l` as a number: one size, both dimensions.
        expected.metadata.sizes = [PhotoSize(suffix: "l", url: expected.imageURL, width: 1024, height: 683)]
        #expect(first == expected)
    }

    @Test func pageOneAppliesTitleOwnerAndURLRules() throws {
        let photos = try FeedDecoder.decode(try fixture("recent-page-1.json")).photos
        let byID = Dictionary(uniqueKeysWithValues: photos.map { ($0.id, $0) })
        #expect(byID["53412345577"]?.title == "東京の夜景")
        #expect(byID["53412345577"]?.subtitle == "")
        #expect(byID["53412345577"]?.ownerName == "山田太郎")
        #expect(byID["53412345540"]?.title == "Unknown")
        #expect(byID["53412345540"]?.imageURL == "https://live.staticflickr.com/65535/53412345540_c0ffee1234_b.jpg")
        #expect(byID["53412345512"]?.uploaded == Date(timeIntervalSince1970: 1_716_999_760))
        #expect(byID["53412345431"]?.ownerName == "7061834@N04")
        #expect(byID["53412345601"]?.ownerName == "José Álvarez")
    }

    @Test func pageTwoReadsStringCountersAndSkipsTheItemWithoutID() throws {
        let page = try FeedDecoder.decode(try fixture("recent-page-2.json"))
        #expect((page.page, page.pages, page.perPage, page.total) == (2, 3, 10, 27))
        #expect(page.photos.count == 9)
        #expect(page.skipped == [SkippedItem(index: 2, reason: "photo 2: missing id")])
        #expect(page.photos.first { $0.id == "53412345400" }?.title == "Duplicated later: edited title")
    }

    @Test func pageThreeSkipsTheItemWithoutOwner() throws {
        let page = try FeedDecoder.decode(try fixture("recent-page-3.json"))
        #expect((page.page, page.pages, page.total) == (3, 3, 27))
        #expect(page.photos.count == 6)
        #expect(page.skipped == [SkippedItem(index: 1, reason: "photo 1: no owner and no ownername")])
    }

    @Test func theThreePagesHoldAnaLimaOnEveryPage() throws {
        let pages = try (1...3).map { try FeedDecoder.decode(try fixture("recent-page-\($0).json")) }
        let anaPerPage = pages.map { $0.photos.filter { $0.ownerName == "Ana Lima" }.count }
        #expect(anaPerPage == [2, 2, 2])
        let kept = pages.map { $0.photos.count + $0.skipped.count }.reduce(0, +)
        #expect(kept == pages[0].total)
    }

    @Test func jsonpPageIsUnwrapped() throws {
        let page = try FeedDecoder.decode(try fixture("jsonp-page.json"))
        #expect(page.total == 2)
        #expect(page.photos.map(\.title) == ["Pão de Açúcar", "Sin título"])
        #expect(page.photos[0].imageURL == "https://live.staticflickr.com/65535/53400000001_ab12cd34ef_b.jpg")
        #expect(page.photos[1].imageURL == "https://live.staticflickr.com/65535/53400000002_cd34ef56ab_b.jpg")
        #expect(page.photos[1].uploaded == Date(timeIntervalSince1970: 1_716_900_060))
    }

    @Test func invalidKeyIsAPermanentAPIError() throws {
        let body = try fixture("error-invalid-key.json")
        #expect(throws: FeedError.api(code: 100, message: "Invalid API Key (Key has invalid format)")) {
            try FeedDecoder.decode(body)
        }
        #expect(FeedError.api(code: 100, message: "").isTemporary == false)
    }

    @Test func serviceUnavailableIsATemporaryAPIError() throws {
        let body = try fixture("error-unavailable.json")
        #expect(throws: FeedError.api(code: 105, message: "Service currently unavailable")) {
            try FeedDecoder.decode(body)
        }
        #expect(FeedError.api(code: 105, message: "").isTemporary)
        #expect(FeedError.api(code: 106, message: "").isTemporary)
    }

    @Test func htmlPageIsMalformedWithAClearMessage() throws {
        #expect(malformedMessage(try fixture("not-json.html"))
            == "not JSON: unexpected character '<' at byte 1 (body starts with '<!DOCTYPE html>')")
        #expect(FeedError.malformed("x").isTemporary == false)
    }
}
