import Foundation
import PhotoSyncTestSupport
import Testing

/// Server and network faults on page 2 of a 2-page fetch, through the binary, real libcurl and a
/// real loopback socket. Each must end with the documented status and one stderr line, leave page 1
/// saved and nothing of page 2, and be recorded as a failed run.
/// (Already covered in PhotoSyncEndToEndTests: 404, 500-then-success, 429 Retry-After 0 then success,
/// a silent server on page 1, malformed JSON and HTML on page 2, API error, empty reply.)
@Suite("server and network faults on page 2", .onTestThreads)
struct ServerFaultTests {
    static let page1 = FeedJSON.page(1, of: 2, photos: [FeedJSON.photo("11"), FeedJSON.photo("12", owner: "Bruno Costa")])

    /// 200 head announcing `declared` bytes, then `sent` bytes of a plausible JSON prefix.
    static func jsonHead(declared: Int) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(declared)\r\nConnection: close\r\n\r\n".utf8)
    }
    static let partialBody = Array(#"{"photos":{"page":2,"pages":2,"perpage":2,"total":4,"photo":[{"id":"21","owner":"#.utf8)

    /// Past the 64 MiB cap once inflated; about 300 KB on the wire.
    static let gzipBomb: [UInt8] = Gzip.compress(Array(repeating: UInt8(ascii: " "), count: 65 * 1024 * 1024 + 4096))

    struct Outcome {
        var result: Sandbox.Result
        var server: ScriptedServer
    }

    /// Runs a 2-page fetch where page 2 is answered by `page2`, then checks the common promises.
    func fetchWithFaultyPage2(
        _ page2: @escaping @Sendable (Int) -> ScriptedServer.Answer, extra: [String] = [], expect status: Int32,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Outcome {
        try await withSandbox { sandbox in
            let server = try ScriptedServer { page, attempt in page == 1 ? .json(Self.page1) : page2(attempt) }
            defer { server.stop() }
            let result = try await sandbox.run(["fetch", "--db", sandbox.db, "--url", server.url, "--api-key", "k",
                                                "--per-page", "2", "--pages", "2"] + extra)
            #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
            #expect(!result.signalled, "\(result)", sourceLocation: sourceLocation)
            #expect(result.stderrLines.filter { !$0.contains("; retry ") }.count == 1, "one error line, besides one warning per retry: \(result)", sourceLocation: sourceLocation)
            #expect(result.stderr.hasPrefix("photosync: "), "\(result)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains("page 2"), "the error names the page: \(result)", sourceLocation: sourceLocation)
            #expect(try await sandbox.ids() == ["11", "12"], "page 1 stays saved, nothing of page 2", sourceLocation: sourceLocation)
            let report = try await sandbox("status", "--format", "json").object()
            let runs = report["runs"] as? [[String: Any]] ?? []
            #expect(runs.first?["outcome"] as? String == "failed", "\(runs)", sourceLocation: sourceLocation)
            #expect(runs.first?["pages"] as? Int == 1, "\(runs)", sourceLocation: sourceLocation)
            #expect(runs.first?["error"] as? String != nil, "\(runs)", sourceLocation: sourceLocation)
            try CatalogInspector(path: sandbox.db).expectConsistent(pages: [["11", "12"]], "after the fault", sourceLocation: sourceLocation)
            return Outcome(result: result, server: server)
        }
    }

    @Test func connectionRefusedIsRetriedThenExits69() async throws {
        try await withSandbox { sandbox in
            let port = try closedLoopbackPort()
            let result = try await sandbox("fetch", "--url", "http://127.0.0.1:\(port)/rest", "--api-key", "k", "--retries", "1")
            #expect(result.status == 69, "\(result)")
            #expect(result.stderrLines.count == 2 && result.stderrLines.first?.contains("retry 1 of 1") == true, "a warning for the retry, then the error: \(result)")
            let report = try await sandbox("status", "--format", "json").object()
            #expect(report["photos"] as? Int == 0)
            #expect((report["runs"] as? [[String: Any]])?.first?["outcome"] as? String == "failed")
        }
    }

    @Test func resetMidBody() async throws {
        let outcome = try await fetchWithFaultyPage2({ _ in .bytesThenReset(Self.jsonHead(declared: 4000) + Self.partialBody) },
                                                     extra: ["--retries", "1"], expect: 69)
        #expect(outcome.server.requestedPages.filter { $0 == 2 }.count == 2, "a reset is a connection error: retried")
    }

    @Test func acceptAndNeverAnswer() async throws {
        let outcome = try await fetchWithFaultyPage2({ _ in .silence }, extra: ["--timeout", "1", "--retries", "0"], expect: 69)
        #expect(outcome.server.requestedPages.filter { $0 == 2 }.count == 1)
    }

    @Test func bodyShorterThanContentLength() async throws {
        _ = try await fetchWithFaultyPage2({ _ in .bytes(Self.jsonHead(declared: 4000) + Self.partialBody) },
                                           extra: ["--retries", "0"], expect: 69)
    }

    @Test func serverErrorStormExhaustsRetries() async throws {
        let outcome = try await fetchWithFaultyPage2({ _ in .http(500) }, extra: ["--retries", "2"], expect: 69)
        #expect(outcome.server.requestedPages.filter { $0 == 2 }.count == 3, "one try plus two retries")
        #expect(outcome.result.stderr.contains("500"), "\(outcome.result)")
    }

    @Test(arguments: [nil, "1"] as [String?])
    func tooManyRequestsStorm(retryAfter: String?) async throws {
        let headers = retryAfter.map { ["Retry-After": $0] } ?? [:]
        let outcome = try await fetchWithFaultyPage2({ _ in .http(429, headers: headers) }, extra: ["--retries", "1"], expect: 69)
        #expect(outcome.server.requestedPages.filter { $0 == 2 }.count == 2, "429 is retried")
        #expect(outcome.result.stderr.contains("429"), "\(outcome.result)")
    }

    @Test func temporaryAPIErrorStorm() async throws {
        let body = #"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#
        let outcome = try await fetchWithFaultyPage2({ _ in .json(body) }, extra: ["--retries", "1"], expect: 69)
        #expect(outcome.server.requestedPages.filter { $0 == 2 }.count == 2, "API code 105 is retried")
    }

    @Test func redirectLoop() async throws {
        let loop = ScriptedServer.Answer.http(302, headers: ["Location": "/rest?page=2&loop=1"])
        let outcome = try await fetchWithFaultyPage2({ _ in loop }, extra: ["--retries", "0"], expect: 69)
        let hops = outcome.server.requestedPages.filter { $0 == 2 }.count
        #expect(hops == 6, "the request plus at most 5 redirects, got \(hops)")
    }

    @Test func redirectToFileIsRefused() async throws {
        let secret = FileManager.default.temporaryDirectory.path + "/photosync-faults-secret-\(UUID().uuidString).json"
        try FeedJSON.page(2, of: 2, photos: [FeedJSON.photo("666", title: "from disk")]).write(toFile: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        _ = try await fetchWithFaultyPage2({ _ in .http(302, headers: ["Location": "file://" + secret]) },
                                           extra: ["--retries", "0"], expect: 69)
    }

    @Test func htmlErrorPageWithStatus200IsBadData() async throws {
        let html = "<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>Back soon</h1></body></html>"
        _ = try await fetchWithFaultyPage2({ _ in .http(200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array(html.utf8)) },
                                           extra: ["--retries", "0"], expect: 65)
    }

    @Test func gzipBodyInflatingPastTheCap() async throws {
        let bomb = Self.gzipBomb
        let outcome = try await fetchWithFaultyPage2({ _ in .http(200, headers: ["Content-Encoding": "gzip", "Content-Type": "application/json"], body: bomb) },
                                                     extra: ["--retries", "0"], expect: 69)
        #expect(outcome.result.stderr.contains("64"), "names the cap: \(outcome.result)")
    }

    @Test func neverEndingBody() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".utf8)
        let start = Array("\(String(Self.partialBody.count, radix: 16))\r\n".utf8) + Self.partialBody + Array("\r\n".utf8)
        _ = try await fetchWithFaultyPage2({ _ in .trickle(head: head + start, chunk: Array("1\r\n \r\n".utf8), interval: 0.05) },
                                           extra: ["--timeout", "2", "--retries", "0"], expect: 69)
    }
}
