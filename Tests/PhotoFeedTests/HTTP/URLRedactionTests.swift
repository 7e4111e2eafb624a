import PhotoFeed
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct URLRedactionTests {
    @Test func replacesTheKeyValue() {
        let url = "https://api.example.com/rest?method=photos.getRecent&api_key=\(apiKey)&page=2"
        #expect(URLRedaction.redact(url) == "https://api.example.com/rest?method=photos.getRecent&api_key=REDACTED&page=2")
    }

    @Test(arguments: [
        "https://h/r?API_KEY=\(apiKey)",
        "https://h/r?Api_Key=\(apiKey)#frag",
        "https://h/r?a=1&api_key=\(apiKey)&api_key=\(apiKey)",
        "connection to https://h/r?x=1&api_key=\(apiKey) failed",
    ])
    func removesTheKeyInAnyCaseAndPosition(_ text: String) {
        let redacted = URLRedaction.redact(text)
        #expect(!redacted.contains(apiKey))
        #expect(redacted.contains("REDACTED"))
    }

    @Test func leavesOtherURLsAlone() {
        let url = "http://127.0.0.1:8080/feed?page=1&per_page=100"
        #expect(URLRedaction.redact(url) == url)
    }
}
