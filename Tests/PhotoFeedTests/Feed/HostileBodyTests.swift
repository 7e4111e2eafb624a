import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

/// Bodies a broken proxy, a truncated download or a hostile server could send:
/// never a crash, always one clear line, or a normal decode when the body is valid.
@Suite(.onTestThreads) struct HostileBodyTests {
    @Test func emptyAndBlankBodies() {
        #expect(malformedMessage([]) == "empty body")
        #expect(malformedMessage(" \r\n\t") == "body is only whitespace")
    }

    @Test func invalidUTF8NamesTheByte() {
        let body = Array(#"{"photos":{"title":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        #expect(malformedMessage(body) == "invalid UTF-8 at byte 21")
    }

    @Test func invalidUTF8InAnIgnoredFieldIsStillRejected() {
        let start = #"{"photos":{"page":1,"pages":1,"perpage":1,"photo":[{"id":"1","tags":"x"#
        let body = Array(start.utf8) + [0xFF] + Array(#""}]}}"#.utf8)
        #expect(malformedMessage(body) == "invalid UTF-8 at byte \(start.utf8.count + 1)")
    }

    /// The check passes ASCII in 8-byte words and validates only non-ASCII runs: each kind of bad
    /// sequence is still found, at its byte, wherever it falls in or after a word.
    @Test(arguments: [
        ([0xFF], 0), ([0xC3], 0), ([0xC3, 0xA9, 0xC3], 2), ([0xE2, 0x82], 0), ([0xC0, 0xAF], 0),
        ([0xED, 0xA0, 0x80], 0), ([0xF4, 0x90, 0x80, 0x80], 0), ([0xE9, 0x9B, 0xAA, 0x80], 3),
    ] as [([UInt8], Int)])
    func invalidSequencesAreFoundAfterAnyPrefix(_ bad: [UInt8], _ offset: Int) {
        for prefixLength in [0, 1, 7, 8, 9, 23] {
            let start = #"{"photos":{"title":""# + String(repeating: "a", count: prefixLength)
            let body = Array(start.utf8) + bad + Array(#"x"}}"#.utf8)
            #expect(malformedMessage(body) == "invalid UTF-8 at byte \(start.utf8.count + offset + 1)", "prefix \(prefixLength)")
        }
    }

    @Test func validNonASCIIPasses() throws {
        let title = "Jos\u{E9} \u{96EA} \u{1F600} e\u{301}"
        let page = try FeedDecoder.decode(Array(pageJSON(photoJSON(#""title":"\#(title)""#)).utf8))
        #expect(page.photos.map(\.title) == [title])
    }

    @Test func nestingThousandsDeepIsRejectedWithoutRecursingIntoIt() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(malformedMessage(#"{"photos":\#(deep)}"#)
            == #"not JSON: nested more than 512 levels deep at byte 522 (body starts with '{"photos":[[[[[')"#)
        let deepItem = String(repeating: #"{"a":"#, count: 5_000)
        #expect(malformedMessage(pageJSON(deepItem))?.contains("nested more than 512 levels deep") == true)
    }

    @Test func nestingWithinTheLimitIsFine() throws {
        let nested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(try decode(pageJSON(photoJSON(#""x":\#(nested)"#))).photos.count == 1)
    }

    @Test(arguments: [
        (#"{"photos":{"page":1"#, #"not JSON: unexpected end of JSON at byte 19 (body starts with '{"photos":{"pag')"#),
        (#"{"photos":{"page":"1"#, #"not JSON: unexpected end of JSON at byte 20 (body starts with '{"photos":{"pag')"#),
        (#"{"stat":"ok"} trailing"#, #"not JSON: unexpected character 't' after the JSON value at byte 15 (body starts with '{"stat":"ok"} t')"#),
        (#"{"stat":"ok",}"#, #"not JSON: unexpected character '}' at byte 14 (body starts with '{"stat":"ok",}')"#),
        (#"{"stat":'ok'}"#, #"not JSON: unexpected character ''' at byte 9 (body starts with '{"stat":'ok'}')"#),
        ("{\"stat\":\"o\nk\"}", #"not JSON: control character in a string at byte 11 (body starts with '{"stat":"o k"}')"#),
        (#"{"stat":"\q"}"#, #"not JSON: invalid escape character 'q' at byte 11 (body starts with '{"stat":"\q"}')"#),
        (#"{"stat":tru}"#, #"not JSON: unexpected character '}' at byte 12 (body starts with '{"stat":tru}')"#),
        (#"{"page":01}"#, #"not JSON: unexpected character '1' at byte 10 (body starts with '{"page":01}')"#),
        (#"{"page":1.}"#, #"not JSON: unexpected character '}' at byte 11 (body starts with '{"page":1.}')"#),
        (#"{"page":-}"#, #"not JSON: unexpected character '}' at byte 10 (body starts with '{"page":-}')"#),
        ("{\"é\":é}", #"not JSON: unexpected character 'é' at byte 7 (body starts with '{"é":é}')"#),
    ])
    func syntaxErrorsSayWhatAndWhere(body: String, message: String) {
        #expect(malformedMessage(body) == message)
    }

    /// Issue 14: a 10 MB title used to be kept whole; it decodes, capped at 64 KiB on a character boundary.
    @Test func tenMegabyteTitleDecodesCapped() throws {
        let title = String(repeating: "é", count: 5_000_000)
        let photo = try #require(try onlyPhoto(photoJSON(#""title":" \#(title) ""#)))
        #expect(photo.title == String(repeating: "é", count: 32_768))
    }

    @Test func tenMegabyteIDIsSkippedWithAShortReason() throws {
        let reason = try #require(try onlySkipReason(photoJSON(id: String(repeating: "9", count: 10_000_000))))
        #expect(reason.count < 120)
    }

    @Test func nullEverywhere() throws {
        let item = #"{"id":"1","owner":"o","ownername":null,"title":null,"description":null,"secret":null,"server":null,"dateupload":null,"url_l":"u"}"#
        let photo = try #require(try onlyPhoto(item))
        #expect(photo == FeedPhoto(id: "1", title: "Unknown", subtitle: "", imageURL: "u", uploaded: nil, ownerID: "o", ownerName: "o"))
    }

    @Test func stringEscapesAndSurrogatesAreDecoded() throws {
        let photo = try #require(try onlyPhoto(photoJSON(#""title":"A\"B\\C\n\u00e9\ud83d\uddfb\ud800x\u0041""#)))
        #expect(photo.title == "A\"B\\C\né🗻\u{FFFD}xA")
    }

    /// Issue 14: a body starting with a UTF-8 byte-order mark (some proxies add one) was rejected.
    @Test func byteOrderMarkIsIgnored() throws {
        let page = try FeedDecoder.decode([0xEF, 0xBB, 0xBF] + Array(pageJSON(photoJSON()).utf8))
        #expect(page.photos.map(\.id) == ["53412345678"])
        let jsonp = try FeedDecoder.decode([0xEF, 0xBB, 0xBF] + Array("jsonFlickrApi(\(pageJSON(photoJSON())))".utf8))
        #expect(jsonp.photos.count == 1)
        #expect(malformedMessage([0xEF, 0xBB, 0xBF]) == "body is only whitespace")
        #expect(malformedMessage([0xEF, 0xBB] + Array("{}".utf8))?.hasPrefix("invalid UTF-8") == true)
    }
}
