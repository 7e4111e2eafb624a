@testable import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Header lines as libcurl hands them over (CRLF included), read byte by byte.
@Suite(.onTestThreads) struct HeaderLineTests {
    static func parse(_ text: String) -> HeaderLine {
        Array(text.utf8).withUnsafeBytes { HeaderLine($0) }
    }

    @Test func statusLines() {
        #expect(Self.parse("HTTP/1.1 200 OK\r\n") == .status(200))
        #expect(Self.parse("HTTP/2 404 \r\n") == .status(404))
        #expect(Self.parse("HTTP/1.1 206\r\n") == .status(206), "a status line without a reason phrase")
        #expect(Self.parse("HTTP/1.1 OK\r\n") == .status(0))
    }

    @Test func fieldsLoseTheirPaddingAndTheirNamesCase() {
        #expect(Self.parse("Content-Length:  4096 \r\n") == .field(name: "content-length", value: "4096"))
        #expect(Self.parse("ETag:\t\"abc\"\r\n") == .field(name: "etag", value: "\"abc\""))
        #expect(Self.parse("Location: http://h/a:b\r\n") == .field(name: "location", value: "http://h/a:b"), "only the first colon splits")
        #expect(Self.parse("X-Empty:\r\n") == .field(name: "x-empty", value: ""))
        #expect(Self.parse("X-Name: Café\r\n") == .field(name: "x-name", value: "Café"), "UTF-8 values kept as they are")
    }

    @Test func theBlankLineIsNeither() {
        #expect(Self.parse("\r\n") == .other)
        #expect(Self.parse("") == .other)
    }
}
