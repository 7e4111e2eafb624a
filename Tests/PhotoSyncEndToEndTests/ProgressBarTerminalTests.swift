import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defect 1: the progress bar on a real pseudo-terminal at 40, 60 and 120 columns, with
/// a skip notice on every page. A small terminal emulator (`TerminalScreen`) replays every byte:
/// at no moment may the screen hold more than one bar line, the bar never wraps, each notice
/// starts a line of its own, and once the command ends nothing of the bar is left.
@Suite("progress bar on a terminal", .onTestThreads)
struct ProgressBarTerminalTests {
    static let pages = 6

    /// Three photos a page, one of them without a usable id (a notice per page).
    static func feed(_ server: TestHTTPServer) {
        let items = (1...pages).flatMap { page in
            [FeedItem("\(page)1", by: "Ana Lima", title: "A photo with a longer title \(page)"),
             FeedItem("\(page)2", by: "Bo Chen", title: "Harbour \(page)"),
             FeedItem("../bad\(page)", by: "Cy Diaz", title: "Bad id \(page)")]
        }
        server.serveFeed(Feed.pages(items, perPage: 3))
    }

    /// A row that shows the bar or a piece of it.
    static func looksLikeBar(_ row: String) -> Bool {
        row.contains(/\d\/\d/) || row.contains("ETA ") || row.contains("photos/s") || row.contains(/\d\/s/) || row.contains(/^\[[#.]/)
    }

    @Test(arguments: [40, 60, 120])
    func theScreenHoldsOneBarAtMostAndNoneAtTheEnd(columns: Int) async throws {
        try await withSandbox { photosync, server in
            Self.feed(server)
            let terminal = PseudoTerminal(columns: columns, rows: 60)
            let args = ["fetch", "--url", server.feedURL, "--db", photosync.db]
            let result = try await runOnDedicatedThread {
                Result { try terminal.run(args, in: photosync, environment: ["PHOTOSYNC_API_KEY": "k123456"]) }
            }.get()
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("\u{1B}[K["), "a bar was drawn: \(result.output.debugDescription)")

            var screen = TerminalScreen(columns: columns, rows: 60)
            var mostBars = 0
            var worst: [String] = []
            screen.feed(result.output) { now in
                let bars = now.lines.filter(Self.looksLikeBar).count
                if bars > mostBars { (mostBars, worst) = (bars, now.nonEmptyLines) }
            }
            #expect(mostBars <= 1, "at \(columns) columns, \(mostBars) bar lines at once:\n\(worst.joined(separator: "\n"))")
            #expect(!screen.wrapped.contains(where: Self.looksLikeBar), "the bar wrapped: \(screen.wrapped)")
            let final = screen.nonEmptyLines
            #expect(!final.contains(where: Self.looksLikeBar), "left on screen:\n\(final.joined(separator: "\n"))")
            let notices = screen.lines.enumerated().filter { $0.element.hasPrefix("photosync: page ") }
            #expect(notices.count == Self.pages, "each notice starts its own line:\n\(final.joined(separator: "\n"))")
            #expect(final.contains { $0.hasPrefix("photos inserted:") }, "\(final)")
        }
    }
}
