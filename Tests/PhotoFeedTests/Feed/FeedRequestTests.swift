import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

@Suite(.onTestThreads) struct FeedRequestTests {
    private let query = "method=flickr.photos.getRecent&api_key=abc123&format=json&nojsoncallback=1"
        + "&extras=description,license,date_upload,date_taken,owner_name,last_update,geo,tags,views,media,"
        + "url_sq,url_t,url_s,url_q,url_m,url_n,url_z,url_c,url_l,url_o,o_dims&per_page=500&page=3"

    @Test func urlHasEveryParameter() {
        let request = FeedRequest(endpoint: "https://api.flickr.com/services/rest/", apiKey: "abc123", perPage: 500, page: 3)
        #expect(request.url == "https://api.flickr.com/services/rest/?" + query)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/?x=1", "http://127.0.0.1:8080/?x=1&"),
        ("http://127.0.0.1:8080/?", "http://127.0.0.1:8080/?"),
        ("http://127.0.0.1:8080/?x=1&", "http://127.0.0.1:8080/?x=1&"),
    ])
    func existingQueryIsExtended(endpoint: String, prefix: String) {
        #expect(FeedRequest(endpoint: endpoint, apiKey: "abc123", perPage: 500, page: 3).url == prefix + query)
    }

    @Test func apiKeyIsPercentEncoded() {
        let url = FeedRequest(endpoint: "https://h/", apiKey: "a b&c=d/é~-._", perPage: 1, page: 1).url
        #expect(url.contains("&api_key=a%20b%26c%3Dd%2F%C3%A9~-._&format=json"))
    }
}
