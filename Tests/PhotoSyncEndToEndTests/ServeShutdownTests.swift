import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// SIGTERM stops `serve` at once even while a search reads every title: the scan is interrupted,
/// its request answered 503 (or closed), and the exit is clean.
@Suite(.serialized, .onTestThreads)
struct ServeShutdownTests {
    /// Long titles (about 130 KB each) make a search for a word none holds take seconds.
    static func slowItems() -> [FeedItem] {
        let title = String(repeating: "Straße ÉTÉ ", count: 12_000)
        return (1...40).map { FeedItem("\(500 + $0)", by: "Ana Lima", title: title + "\($0)") }
    }

    @Test(arguments: [CatalogKind.sqlite, .postgres])
    func sigtermDuringASlowSearchStopsCleanly(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            try await fixture.fetch(Self.slowItems())
            let gallery = try await ServedGallery.start(fixture.photosync)
            let port = gallery.port
            let search = Task {
                await runOnDedicatedThread {
                    RawResponse.exchange(Array("GET /search?q=zzqx HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8), port: port)
                }
            }
            try await Task.sleep(for: .milliseconds(700))
            let stopped = await gallery.stop()
            let answer = await search.value.flatMap(RawResponse.init)
            #expect(stopped.status == 0, "\(stopped)")
            #expect(stopped.stderrLines.last == "stopped", "\(stopped.stderr)")
            #expect(!stopped.stderr.contains("Fatal") && !stopped.stderr.contains("Stack") && !stopped.stderr.contains("backtrace"), "\(stopped.stderr)")
            #expect(answer == nil || answer?.status == 503, "\(String(describing: answer?.status))")
        }
    }
}
