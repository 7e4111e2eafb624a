import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

/// Every `url_`, `width_` and `height_` key lands in its own size, whatever its spelling in the
/// JSON; keys that only look like them are not sizes.
@Suite(.onTestThreads) struct PhotoSizeTests {
    @Test func everySizeKeyFillsItsOwnSize() throws {
        let members = PhotoSize.suffixes.enumerated().flatMap { index, suffix in
            [#""url_\#(suffix)":"https://x.test/\#(suffix).jpg""#, #""width_\#(suffix)":\#(index + 1)"#, #""height_\#(suffix)":"\#(index + 101)""#]
        }
        let photo = try #require(try onlyPhoto(photoJSON(members.joined(separator: ","))))
        let expected = PhotoSize.suffixes.enumerated().map { index, suffix in
            PhotoSize(suffix: suffix, url: "https://x.test/\(suffix).jpg", width: index + 1, height: index + 101)
        }
        #expect(photo.metadata.sizes == expected)
    }

    @Test func anEscapedKeyIsTheSameKey() throws {
        let photo = try #require(try onlyPhoto(photoJSON(#""url\u005fsq":"https://x.test/sq.jpg","w\u0069dth_sq":75"#)))
        #expect(photo.metadata.sizes == [PhotoSize(suffix: "sq", url: "https://x.test/sq.jpg", width: 75, height: nil)])
    }

    @Test(arguments: ["url_", "url_x", "url_sqq", "urlsq", "url_SQ", "width_", "height_ll", "heights_l", "url__sq"])
    func aKeyThatOnlyLooksLikeASizeIsIgnored(_ key: String) throws {
        let photo = try #require(try onlyPhoto(photoJSON(#""\#(key)":"https://x.test/odd.jpg","url_t":"https://x.test/t.jpg""#)))
        #expect(photo.metadata.sizes.map(\.suffix) == ["t"])
        #expect(photo.metadata.sizes.first?.url == "https://x.test/t.jpg")
    }
}
