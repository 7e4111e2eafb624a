#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

/// Issue 14, defect 9: numbers and sizes a hostile feed sends.
@Suite(.onTestThreads) struct HostileNumbersTests {
    /// `1e400` was stored as photo "inf"; `-0` became "0" and merged with a real photo 0.
    @Test func idsAreTheIntegerTextAsSent() throws {
        let page = try decode(pageJSON(
            photoJSON(#""id":1e400"#), photoJSON(#""id":-0"#), photoJSON(#""id":0"#),
            photoJSON(#""id":123456789012345678901234567890"#), photoJSON(#""id":12"#)))
        #expect(page.photos.map(\.id) == ["0", "123456789012345678901234567890", "12"])
        #expect(page.skipped.map(\.index) == [0, 1])
    }

    /// Every `dateupload` from 1e15 to 9.2e18 listed as year 506713.
    @Test(arguments: ["1000000000000000", "9200000000000000000", "\"4102444800\"", "-1", "1e15", "\"soon\""])
    func datesOutsideTheSaneRangeAreUnknownWithAReason(value: String) throws {
        let page = try decode(pageJSON(photoJSON(#""dateupload":\#(value)"#)))
        #expect(page.photos.count == 1)
        #expect(page.photos.first?.uploaded == nil)
        #expect(page.notes.count == 1)
        #expect(page.notes.first?.reason.hasPrefix("photo 0: dateupload") == true, "\(page.notes)")
    }

    @Test(arguments: [("0", 0.0), ("\"4102444799\"", 4_102_444_799.0), ("1717000000", 1_717_000_000.0)])
    func datesInsideTheRangeAreKept(value: String, seconds: Double) throws {
        let page = try decode(pageJSON(photoJSON(#""dateupload":\#(value)"#)))
        #expect(page.photos.first?.uploaded == Date(timeIntervalSince1970: seconds))
        #expect(page.notes.isEmpty)
    }

    @Test func absentOrBlankDatesAreUnknownWithoutANote() throws {
        let page = try decode(pageJSON(photoJSON(#""dateupload":"""#), photoJSON(#""dateupload":null"#)))
        #expect(page.photos.map(\.uploaded) == [nil, nil])
        #expect(page.notes.isEmpty)
    }

    /// `"total": 99999999999999999999` rejected the whole page; counts the importer does not need never do.
    @Test(arguments: ["99999999999999999999", "-1", "\"many\"", "1.5", "true", "{}"])
    func unneededCountsNeverRejectAPage(value: String) throws {
        let json = #"{"photos":{"page":1,"pages":1,"perpage":\#(value),"total":\#(value),"photo":[\#(photoJSON())]},"stat":"ok"}"#
        let page = try decode(json)
        #expect(page.photos.count == 1)
        #expect(page.total == 0 && page.perPage == 0)
    }

    @Test func titleDescriptionAndNamesAreCappedOnACharacterBoundary() throws {
        // "e" + combining acute: one character of 3 bytes; the cut must not split it.
        let accented = String(repeating: "e\u{301}", count: 30_000)
        let name = String(repeating: "🇫🇷", count: 300)  // 8 bytes a flag
        let page = try decode(pageJSON(photoJSON(
            #""title":"\#(accented)","description":{"_content":"\#(accented)"},"ownername":"\#(name)","owner":"\#(name)""#)))
        let photo = try #require(page.photos.first)
        #expect(photo.title.utf8.count <= 65_536 && photo.title.utf8.count > 65_530)
        #expect(photo.title.unicodeScalars.last == "\u{301}")
        #expect(photo.subtitle == photo.title)
        #expect(photo.ownerName == String(repeating: "🇫🇷", count: 128))
        #expect(photo.ownerID == photo.ownerName)
    }

    @Test func cutKeepsWholeCharactersAndShortTextAsIs() {
        #expect(TextCap.cut("abc", toBytes: 3) == "abc")
        #expect(TextCap.cut("abcé", toBytes: 4) == "abc")
        #expect(TextCap.cut("ae\u{301}x", toBytes: 3) == "a")
        #expect(TextCap.cut("東京", toBytes: 5) == "東")
    }

    @Test func overlongURLPartsCountAsAbsent() throws {
        let long = String(repeating: "a", count: 9000)
        #expect(try onlyPhoto(photoJSON(#""url_l":"https://x/\#(long)""#))?.imageURL
            == "https://live.staticflickr.com/65535/53412345678_a1b2c3d4e5_b.jpg")
        #expect(try onlySkipReason(photoJSON(#""server":"\#(String(repeating: "9", count: 300))""#)) == "photo 0: no url_l and no server/secret")
    }
}
