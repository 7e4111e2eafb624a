import PhotoFeed
import PhotoSyncTestSupport
import Testing

@Suite(.onTestThreads) struct HTTPErrorTests {
    @Test(arguments: [
        (HTTPError.connection("refused"), true),
        (.timedOut, true),
        (.truncatedBody, true),
        (.status(500), true),
        (.status(503), true),
        (.status(429), true),
        (.status(404), false),
        (.status(401), false),
        (.status(400), false),
        (.tls("bad certificate"), false),
        (.tooLarge(limit: 1), false),
        (.tooManyRedirects, false),
        (.redirectRefused("file:///etc/passwd"), false),
        (.schemeNotAllowed("ftp://x"), false),
        (.invalidURL("x"), false),
    ])
    func retryability(error: HTTPError, retryable: Bool) {
        #expect(error.isRetryable == retryable)
    }

    /// Even a payload that slipped through unredacted never reaches the text.
    @Test(arguments: [
        HTTPError.invalidURL("http//h/?api_key=\(apiKey)"),
        .schemeNotAllowed("ftp://h/?api_key=\(apiKey)"),
        .connection("could not reach http://h/?api_key=\(apiKey)"),
        .tls("http://h/?api_key=\(apiKey)"),
        .redirectRefused("file:///x?api_key=\(apiKey)"),
        .fileUnreadable("file:///x?api_key=\(apiKey)"),
        .transport(code: 99, message: "http://h/?api_key=\(apiKey)"),
    ])
    func descriptionNeverContainsTheKey(error: HTTPError) {
        #expect(!error.description.contains(apiKey))
        #expect(error.errorDescription?.contains(apiKey) == false)
        #expect(!"\(error)".contains(apiKey))
    }
}
