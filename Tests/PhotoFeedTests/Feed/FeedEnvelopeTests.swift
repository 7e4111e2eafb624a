import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

/// The top level and the `photos` object: `stat`, paging counters, shapes.
@Suite(.onTestThreads) struct FeedEnvelopeTests {
    @Test func countersMayBeNumbersOrStrings() throws {
        let page = try decode(#"{"photos":{"page":"2","pages":10.0,"perpage":" 500 ","total":5000,"photo":[]},"stat":"ok"}"#)
        #expect((page.page, page.pages, page.perPage, page.total) == (2, 10, 500, 5000))
    }

    @Test(arguments: [#""""#, "null", #""  ""#])
    func blankOrNullTotalIsZero(total: String) throws {
        let page = try decode(#"{"photos":{"page":1,"pages":0,"perpage":100,"total":\#(total),"photo":[]},"stat":"ok"}"#)
        #expect(page.total == 0)
        #expect(page.pages == 0)
    }

    /// Keys are compared as bytes; one written with escapes is decoded first and still matches,
    /// and a key that only starts like a known one does not.
    @Test func escapedKeysMatchAndPrefixesDoNot() throws {
        let body = #"{"ph\u006ftos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"\u0069d":"42","owner":"1@N01","ownername":"Ana","secret":"s","server":"1","title":"T","titles":"X","id2":"9"}]},"st\u0061t":"ok"}"#
        let page = try decode(body)
        #expect(page.photos.map(\.id) == ["42"], "\(page.skipped)")
        #expect(page.photos.first?.title == "T")
    }

    @Test func missingTotalIsZero() throws {
        #expect(try decode(#"{"photos":{"page":1,"pages":0,"perpage":100}}"#).total == 0)
    }

    @Test func missingStatIsAcceptedWithPhotos() throws {
        #expect(try decode(#"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[\#(photoJSON())]}}"#).photos.count == 1)
    }

    @Test func statIsCheckedBeforePhotos() throws {
        let body = #"{"photos":{"page":-1},"stat":"fail","code":"105","message":" Service currently unavailable "}"#
        #expect(throws: FeedError.api(code: 105, message: "Service currently unavailable")) { try decode(body) }
    }

    @Test func failureWithoutCodeOrMessage() throws {
        #expect(throws: FeedError.api(code: 0, message: "(no message)")) { try decode(#"{"stat":"fail"}"#) }
    }

    @Test func unknownStatIsMalformed() {
        #expect(malformedMessage(#"{"stat":"maybe","photos":{}}"#) == #""stat" is "maybe", expected "ok" or "fail""#)
    }

    @Test(arguments: [#"{"stat":"ok"}"#, #"{"stat":"ok","photos":null}"#, "{}"])
    func missingPhotosIsMalformed(body: String) {
        #expect(malformedMessage(body) == #"missing "photos" object"#)
    }

    @Test func photosOfTheWrongShapeIsMalformed() {
        #expect(malformedMessage(#"{"stat":"ok","photos":[1]}"#) == #""photos" is not an object"#)
        #expect(malformedMessage(#"{"photos":{"page":1,"pages":1,"perpage":1,"photo":{"id":"1"}}}"#)
            == #""photos.photo" is not an array"#)
    }

    @Test func missingOrNullPhotoArrayIsAnEmptyPage() throws {
        #expect(try decode(#"{"photos":{"page":1,"pages":0,"perpage":100,"total":0}}"#).photos.isEmpty)
        #expect(try decode(#"{"photos":{"page":1,"pages":0,"perpage":100,"photo":null}}"#).photos.isEmpty)
    }

    @Test(arguments: [
        (#""page":1,"pages":-3,"perpage":1"#, #""pages" is -3"#),
        (#""page":-1,"pages":3,"perpage":1"#, #""page" is -1"#),
        (#""pages":3,"perpage":1"#, #"missing "page" in "photos""#),
        (#""page":1,"pages":null,"perpage":1"#, #"missing "pages" in "photos""#),
        (#""page":1,"pages":"ten","perpage":1"#, #""pages" is not a whole number: "ten""#),
        (#""page":1,"pages":1.5,"perpage":1"#, #""pages" is not a whole number: 1.5"#),
        (#""page":1,"pages":{},"perpage":1"#, #""pages" is not a whole number: an object or array"#),
    ])
    func badCountersAreMalformed(counters: String, message: String) {
        #expect(malformedMessage(#"{"photos":{\#(counters),"photo":[]},"stat":"ok"}"#) == message)
    }

    @Test func hugePagesValueIsDecoded() throws {
        let page = try decode(#"{"photos":{"page":1,"pages":9223372036854775807,"perpage":500,"total":"9000000000000","photo":[]}}"#)
        #expect(page.pages == Int.max)
        #expect(page.total == 9_000_000_000_000)
    }

    @Test(arguments: ["[1,2]", "null", #""ok""#, "42"])
    func topLevelThatIsNotAnObjectIsMalformed(body: String) {
        #expect(malformedMessage(body) == "top-level JSON value is not an object")
    }

    @Test func unknownKeysAtEveryLevelAreIgnored() throws {
        let body = #"{"extra":{"deep":[1,{"x":null}]},"photos":{"x":[true,false],"page":1,"pages":1,"perpage":1,"total":1,"photo":[\#(photoJSON(#""tags":"a b","geo":{"lat":1.5e3}"#))]},"stat":"ok"}"#
        #expect(try decode(body).photos.map(\.id) == ["53412345678"])
    }
}
