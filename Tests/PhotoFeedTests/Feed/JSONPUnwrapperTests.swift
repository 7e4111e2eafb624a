import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

@Suite(.onTestThreads) struct JSONPUnwrapperTests {
    private let json = #"{"photos":{"page":1,"pages":0,"perpage":100,"total":0,"photo":[]},"stat":"ok"}"#

    @Test(arguments: [
        "jsonFlickrApi(%@)",
        "/**/jsonFlickrApi(%@)",
        "/**/ jsonFlickrApi(%@);",
        "\n  /**/jsonFlickrApi ( %@ ) ; \n",
        "myCallback(%@)",
        "  %@  ",
    ])
    func wrappersAreAccepted(wrapper: String) throws {
        let body = wrapper.replacing("%@", with: json)
        #expect(try decode(body).pages == 0)
    }

    @Test func unclosedCallIsMalformed() {
        #expect(malformedMessage("/**/jsonFlickrApi(" + json) == #"JSONP call jsonFlickrApi( is not closed with ")""#)
        #expect(malformedMessage("jsonFlickrApi()") == "JSONP call jsonFlickrApi() holds no JSON")
    }

    @Test func apiErrorsInsideJSONP() {
        #expect(throws: FeedError.api(code: 105, message: "Service currently unavailable")) {
            try decode(#"/**/jsonFlickrApi({"stat":"fail","code":105,"message":"Service currently unavailable"})"#)
        }
    }

    @Test func bareWordIsNotJSONP() {
        #expect(malformedMessage("Forbidden") == "not JSON: unexpected character 'F' at byte 1 (body starts with 'Forbidden')")
    }
}
