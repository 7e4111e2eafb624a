import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 1: a terminal resized while the fetch waits for a page (nothing else prints)
/// gets a bar that fits its new width at once, not at the next page. The feed never answers, so
/// the bar drawn at the first request is the only output until the test interrupts the fetch.
@Suite("progress bar on a resized terminal", .onTestThreads)
struct ProgressBarResizeTests {
    /// The bar's redraws in `output` (the text after each erase-in-line that starts a bar).
    static func bars(in output: String) -> [String] {
        output.components(separatedBy: "\r\u{1B}[K").dropFirst()
            .map { $0.prefix { $0 != "\r" && $0 != "\n" && $0 != "\u{1B}" } }.map(String.init)
            .filter { $0.contains(" pages") || $0.contains(/^\d+\/\d+$/) }
    }

    @Test func aResizeWithNoOutputRedrawsTheBarToFit() async throws {
        let silent = try RawSocketServer(.neverRespond)
        defer { silent.stop() }
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let terminal = PseudoTerminal(columns: 120, rows: 30)
        let args = ["fetch", "--url", silent.baseURL + "/rest", "--timeout", "600", "--retries", "0", "--db", photosync.db]
        let outcome = try await runOnDedicatedThread {
            Result { () throws -> (drawnWide: Bool, refitted: Bool, result: PseudoTerminal.Result) in
                let session = try terminal.start(args, in: photosync, environment: ["PHOTOSYNC_API_KEY": "k123456"])
                let drawnWide = session.waitForOutput { Self.bars(in: $0).contains { $0.count > 39 } }
                // The request is out and unanswered: nothing but a resize can make it draw now.
                _ = session.waitForOutput { _ in silent.connectionCount == 1 }
                usleep(200_000)
                let before = Self.bars(in: session.output).count
                session.resize(columns: 40)
                let refitted = session.waitForOutput(seconds: 20) { output in
                    Self.bars(in: output).dropFirst(before).contains { $0.count <= 39 }
                }
                session.signal(SIGINT)
                return (drawnWide, refitted, session.wait())
            }
        }.get()
        let bars = Self.bars(in: outcome.result.output)
        #expect(outcome.drawnWide, "a full bar at 120 columns first: \(outcome.result.output.debugDescription)")
        #expect(outcome.refitted, "no bar of at most 39 columns after the resize: \(bars)")
        #expect(silent.connectionCount == 1, "the feed never answered: the redraw came from the resize alone")
        #expect(bars.allSatisfy { $0.hasPrefix("[") && $0.contains("0/") }, "every bar is the one before the first page: \(bars)")
        let tail = outcome.result.output.components(separatedBy: "\r\u{1B}[K").last ?? ""
        #expect(!tail.contains(" pages"), "nothing of the bar is left: \(tail.debugDescription)")
    }
}
