import Foundation
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// The gallery's small parts: escaping by context, request heads, page cursors, byte ranges, tokens.
@Suite("serve: escaping, heads, cursors, ranges", .onTestThreads)
struct ServeUnitTests {
    @Test func textIsEscapedForElementsAndAttributes() {
        #expect(HTML.text(#"<a href="x" onclick='y'>&"#) == "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;")
        #expect(HTML.text("\u{202E}gnp.exe") == "\\u{202E}gnp.exe")
        #expect(HTML.text("Chloé 山田 👍🏽") == "Chloé 山田 👍🏽")
    }

    @Test func onlyAbsoluteHTTPURLsBecomeLinks() {
        #expect(HTML.externalURL("https://live.staticflickr.com/1/2_l.jpg?a=1&b=\"") == "https://live.staticflickr.com/1/2_l.jpg?a=1&amp;b=%22")
        #expect(HTML.externalURL("https://live.staticflickr.com/1/2_l.jpg?a=1&b=2") == "https://live.staticflickr.com/1/2_l.jpg?a=1&amp;b=2")
        for bad in ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,<b>", "//evil.test/x", "/files/x", ""] {
            #expect(HTML.externalURL(bad) == nil, "\(bad)")
        }
    }

    @Test func aSegmentKeepsSlashesAndQuestionMarksInside() {
        #expect(HTML.segment("Eve/Mallory?x=1#y") == "Eve%2FMallory%3Fx%3D1%23y")
        #expect(HTML.segment("Ana Lima").removingPercentEncoding == "Ana Lima")
    }

    @Test func requestHeadsParseAndMalformedOnesDoNot() throws {
        let head = try #require(HTTPRequestHead.parse(ArraySlice("GET /search?q=a+b%26c&q=ignored HTTP/1.1\r\nHost: x\r\nConnection: close".utf8)))
        #expect(head.method == "GET" && head.path == "/search" && head.query == ["q": "a b&c"] && !head.keepsAlive)
        #expect(HTTPRequestHead.parse(ArraySlice("GET / HTTP/1.0\r\nContent-Length: 5".utf8))?.announcesBody == true)
        for bad in ["GET /", "GET http://x/ HTTP/1.1", "GET / HTTP/2", "GET / HTTP/1.1\r\n folded: x", "GET / HTTP/1.1\r\nno colon"] {
            #expect(HTTPRequestHead.parse(ArraySlice(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func cursorsRoundTripAndRejectGarbage() {
        let cursor = GalleryCursor(uploaded: Date(timeIntervalSince1970: 1_700_000_060), id: "5~3")
        #expect(GalleryCursor(cursor.text) == cursor)
        #expect(GalleryCursor("-~9") == GalleryCursor(uploaded: nil, id: "9"))
        for bad in ["", "~", "12", "x~1", "12~"] { #expect(GalleryCursor(bad) == nil, "\(bad)") }
    }

    @Test func byteRangesWithinTheFile() {
        #expect(FileReply.byteRange("bytes=0-9", size: 100) == .some(0..<10))
        #expect(FileReply.byteRange("bytes=90-", size: 100) == .some(90..<100))
        #expect(FileReply.byteRange("bytes=-10", size: 100) == .some(90..<100))
        #expect(FileReply.byteRange("bytes=50-500", size: 100) == .some(50..<100))
        #expect(FileReply.byteRange("bytes=0-1,5-6", size: 100) == .some(nil))  // several: the whole file
        #expect(FileReply.byteRange("bytes=100-", size: 100) == nil)  // 416
        #expect(FileReply.byteRange("bytes=-0", size: 100) == nil)
    }

    @Test func tokensCompareWholly() {
        #expect(AccessToken.same("abc", "abc"))
        #expect(!AccessToken.same("abd", "abc") && !AccessToken.same("ab", "abc") && !AccessToken.same("abcd", "abc") && !AccessToken.same("", "abc"))
        #expect(AccessToken.random().count == 64 && AccessToken.random() != AccessToken.random())
    }
}
