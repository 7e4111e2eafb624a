import Foundation
import PhotoSyncTestSupport
import Synchronization
import Testing

/// A cut transfer keeps its `.part` file; the next run continues it with `Range` when the server
/// allowed it (`Accept-Ranges: bytes`) and its copy is the same (`ETag`), and starts again otherwise.
@Suite("download: resuming cut transfers", .onTestThreads)
struct ResumeTests {
    static let image = Images.jpeg(100_000, seed: 90)
    static let newImage = Images.jpeg(90_000, seed: 91)
    static let cutAt = 40_000
    static let path = "/img/91.jpg"

    /// A server that sends the first `cutAt` bytes of `image` with `headers`, then closes.
    static func cuttingServer(_ headers: String) throws -> RawSocketServer {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: \(image.count)\r\n\(headers)\r\n"
        return try RawSocketServer(.send(Array(head.utf8) + image.prefix(cutAt)))
    }

    static func partial(from: Int, of body: [UInt8], etag: String) -> TestResponse {
        TestResponse(status: 206, headers: [
            "Content-Type": "image/jpeg", "ETag": etag, "Content-Range": "bytes \(from)-\(body.count - 1)/\(body.count)",
        ], body: Array(body[from...]))
    }

    /// The catalog's URL stays the fixture server's: its first answer redirects to the cutting
    /// server, later ones come from `answer` (given whether the request asked for a range).
    static func cutThenServe(
        _ fixture: DownloadFixture, cutHeaders: String, keepsPart: Bool = true, _ answer: @escaping @Sendable (RecordedRequest) -> TestResponse
    ) async throws {
        let cut = try cuttingServer(cutHeaders)
        defer { cut.stop() }
        let served = Atomic(0)
        fixture.server.route(path) { request in
            served.add(1, ordering: .relaxed).oldValue == 0 ? .redirect(to: cut.baseURL + path) : answer(request)
        }
        var item = FeedItem("91", by: "Ana Lima", title: "t")
        item.imageURL = fixture.server.url(path)
        try await fixture.fetch([item])
        let first = try await fixture.download("--retries", "0")
        #expect(first.status == 1, "\(first)")
        // Only a part that can be continued is worth its disk space.
        #expect(FileManager.default.contents(atPath: fixture.files + "/.91_l.part")?.count == (keepsPart ? cutAt : nil), "\(fixture.names())")
    }

    @Test func theSameETagContinuesWithARangeRequest() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            try await Self.cutThenServe(fixture, cutHeaders: "Accept-Ranges: bytes\r\nETag: \"v1\"\r\n") { request in
                request.headers["range"] == "bytes=\(Self.cutAt)-" ? Self.partial(from: Self.cutAt, of: Self.image, etag: "\"v1\"")
                    : Images.response(Self.image)
            }
            let second = try await fixture.download()
            #expect(second.status == 0, "\(second)")
            #expect(try jsonObject(second)["bytes"] as? Int == Self.image.count)
            #expect(fixture.server.requests(to: Self.path).last?.headers["range"] == "bytes=\(Self.cutAt)-")
            #expect(fixture.names() == ["91_l.jpg"])
            #expect(fixture.contents("91_l.jpg") == Self.image)
            let show = try jsonObject(try await fixture.run("show", "91", "--format", "json"))
            #expect((show["file"] as? [String: Any])?["size"] as? Int == Self.image.count)
            #expect(try await fixture.run("verify").status == 0, "the streamed sha256 covers the resumed bytes too")
        }
    }

    @Test func anotherETagStartsAgainFromTheFirstByte() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            try await Self.cutThenServe(fixture, cutHeaders: "Accept-Ranges: bytes\r\nETag: \"v1\"\r\n") { request in
                request.headers["range"] != nil ? Self.partial(from: Self.cutAt, of: Self.newImage, etag: "\"v2\"")
                    : TestResponse(status: 200, headers: ["Content-Type": "image/jpeg", "ETag": "\"v2\""], body: Self.newImage)
            }
            let second = try await fixture.download()
            #expect(second.status == 0, "\(second)")
            let requests = fixture.server.requests(to: Self.path).dropFirst()
            #expect(requests.map { $0.headers["range"] } == ["bytes=\(Self.cutAt)-", nil])
            #expect(fixture.contents("91_l.jpg") == Self.newImage)
        }
    }

    @Test func withoutAcceptRangesTheNextRunStartsAgain() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            try await Self.cutThenServe(fixture, cutHeaders: "ETag: \"v1\"\r\n", keepsPart: false) { _ in Images.response(Self.image) }
            let second = try await fixture.download()
            #expect(second.status == 0, "\(second)")
            #expect(fixture.server.requests(to: Self.path).last?.headers["range"] == nil)
            #expect(fixture.contents("91_l.jpg") == Self.image)
        }
    }
}
