#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

/// One `photo` element at a time: ids, owners, URLs, upload dates, skips and duplicates.
@Suite(.onTestThreads) struct PhotoItemRulesTests {
    @Test func numericIDIsAccepted() throws {
        #expect(try onlyPhoto(photoJSON(#""id":53412345678"#))?.id == "53412345678")
    }

    @Test(arguments: [
        (#"{"owner":"1@N01","url_l":"u"}"#, "photo 0: missing id"),
        (photoJSON(#""id":"""#), "photo 0: empty id"),
        (photoJSON(#""id":null"#), "photo 0: id is not a string or number"),
        (photoJSON(#""id":true"#), "photo 0: id is not a string or number"),
        (photoJSON(#""id":{"_content":"1"}"#), "photo 0: id is not a string or number"),
        (photoJSON(#""id":"12/../34""#), #"photo 0: id "12/../34" is not 1–64 ASCII letters or digits"#),
        (photoJSON(#""id":" 123""#), #"photo 0: id " 123" is not 1–64 ASCII letters or digits"#),
        (photoJSON(#""id":1.5"#), #"photo 0: id "1.5" is not an integer"#),
        (photoJSON(#""id":1e400"#), #"photo 0: id "1e400" is not an integer"#),
        (photoJSON(#""id":66.0"#), #"photo 0: id "66.0" is not an integer"#),
        (photoJSON(#""id":-0"#), #"photo 0: id "-0" is not 1–64 ASCII letters or digits"#),
        (photoJSON(#""id":-7"#), #"photo 0: id "-7" is not 1–64 ASCII letters or digits"#),
    ])
    func unusableIDsAreSkipped(item: String, reason: String) throws {
        let page = try decode(pageJSON(item))
        #expect(page.photos.isEmpty)
        #expect(page.skipped.map(\.reason) == [reason])
    }

    @Test func idOf64CharactersIsTheLimit() throws {
        let longest = String(repeating: "a1", count: 32)
        #expect(try onlyPhoto(photoJSON(id: longest))?.id == longest)
        #expect(try onlySkipReason(photoJSON(id: longest + "b"))?.hasSuffix("is not 1–64 ASCII letters or digits") == true)
    }

    @Test func ownerNameFallsBackToTheOwnerID() throws {
        let photo = try #require(try onlyPhoto(photoJSON(#""ownername":"  ""#)))
        #expect(photo.ownerName == "52755911@N03")
        #expect(photo.ownerID == "52755911@N03")
    }

    @Test func ownerIDFallsBackToTheOwnerName() throws {
        let photo = try #require(try onlyPhoto(photoJSON(#""owner":null,"ownername":" José Álvarez ""#)))
        #expect(photo.ownerID == "José Álvarez")
        #expect(photo.ownerName == "José Álvarez")
    }

    @Test func photoWithNoOwnerAtAllIsSkipped() throws {
        #expect(try onlySkipReason(photoJSON(#""owner":"","ownername":null"#)) == "photo 0: no owner and no ownername")
    }

    @Test func urlLWinsWhenPresent() throws {
        let url = "https://live.staticflickr.com/65535/1_x_b.jpg"
        #expect(try onlyPhoto(photoJSON(#""url_l":"\#(url)""#))?.imageURL == url)
    }

    @Test func escapedSlashesInURLsAreDecoded() throws {
        #expect(try onlyPhoto(photoJSON(#""url_l":"https:\/\/live.staticflickr.com\/1\/2_3_b.jpg""#))?.imageURL
            == "https://live.staticflickr.com/1/2_3_b.jpg")
    }

    @Test(arguments: ["", #""url_l":"""#, #""url_l":null"#])
    func missingURLLIsBuiltFromServerAndSecret(extra: String) throws {
        #expect(try onlyPhoto(photoJSON(extra))?.imageURL
            == "https://live.staticflickr.com/65535/53412345678_a1b2c3d4e5_b.jpg")
    }

    @Test func numericServerIsAccepted() throws {
        #expect(try onlyPhoto(photoJSON(#""server":7372"#))?.imageURL
            == "https://live.staticflickr.com/7372/53412345678_a1b2c3d4e5_b.jpg")
    }

    @Test(arguments: [#""server":"""#, #""secret":null"#])
    func noURLAndNoServerOrSecretIsSkipped(extra: String) throws {
        #expect(try onlySkipReason(photoJSON(extra)) == "photo 0: no url_l and no server/secret")
    }

    @Test(arguments: [(#""dateupload":1188330442"#, 1_188_330_442.0), (#""dateupload":"1188330442""#, 1_188_330_442.0)])
    func uploadDateFromStringOrNumber(extra: String, seconds: Double) throws {
        #expect(try onlyPhoto(photoJSON(extra))?.uploaded == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [#""dateupload":"""#, #""dateupload":"yesterday""#, #""dateupload":null"#, #""dateupload":"-5""#])
    func unusableUploadDateIsNil(extra: String) throws {
        let photo = try #require(try onlyPhoto(photoJSON(extra)))
        #expect(photo.uploaded == nil)
    }

    @Test func elementsThatAreNotObjectsAreSkippedAndTheRestKept() throws {
        let page = try decode(pageJSON("null", "42", #""53412345678""#, "[]", photoJSON()))
        #expect(page.photos.map(\.id) == ["53412345678"])
        #expect(page.skipped.map(\.index) == [0, 1, 2, 3])
        #expect(page.skipped.allSatisfy { $0.reason.hasSuffix("not an object") })
    }

    /// A repeated id is not the decoder's to resolve: every copy reaches the importer, in order.
    @Test func duplicateIDsAreAllKeptInOrder() throws {
        let page = try decode(pageJSON(
            photoJSON(#""title":"first""#), photoJSON(id: "2"), photoJSON(#""title":"second""#), photoJSON(#""title":"third""#)
        ))
        #expect(page.photos.map(\.title) == ["first", "T", "second", "third"])
        #expect(page.photos.map(\.id) == ["53412345678", "2", "53412345678", "53412345678"])
        #expect(page.skipped.isEmpty)
    }

    @Test func skippedItemsStayInElementOrder() throws {
        let page = try decode(pageJSON(photoJSON(id: "1"), "null", #"{"id":"9"}"#, "[]"))
        #expect(page.skipped.map(\.index) == [1, 2, 3])
    }

    @Test func repeatedKeyInOneElementKeepsTheLastValue() throws {
        #expect(try onlyPhoto(photoJSON(#""title":"again""#))?.title == "again")
    }
}

/// Control characters (Unicode's Cc: C0, DEL and C1) are refused in image URLs and `datetaken`;
/// other non-ASCII text is not.
@Suite(.onTestThreads)
struct ControlCharacterRulesTests {
    static let controls = ["\\u0001", "\\u001b", "\\u007f", "\\u0085", "\\u009b"]

    @Test(arguments: controls + [" "])
    func aURLWithAControlOrASpaceIsNotASize(_ character: String) throws {
        let photo = try #require(try onlyPhoto(photoJSON(#""url_o":"https://x.test/a\#(character)b.jpg","url_c":"https://x.test/c.jpg""#)))
        #expect(photo.metadata.sizes.map(\.suffix) == ["c"])
    }

    @Test(arguments: controls)
    func aDateTakenWithAControlIsDropped(_ character: String) throws {
        #expect(try onlyPhoto(photoJSON(#""datetaken":"2024-01-01 1\#(character)2""#))?.metadata.taken == nil)
    }

    @Test func nonControlNonASCIIPasses() throws {
        let photo = try #require(try onlyPhoto(photoJSON(#""datetaken":"2024-01-01 \u00a0é","url_o":"https://x.test/é.jpg""#)))
        #expect(photo.metadata.taken == "2024-01-01 \u{A0}é")
        #expect(photo.metadata.sizes.map(\.suffix) == ["o"])
    }
}
