import Testing
@testable import PhotoSyncKit

@Suite("Progress display")
struct ProgressDisplayTests {
    /// Collects what the display writes.
    final class Sink {
        var chunks: [String] = []
    }

    @Test("redraws one line with carriage returns and ends it with a newline")
    func redraws() {
        let sink = Sink()
        let display = ProgressDisplay(pageLimit: 5) { sink.chunks.append($0) }
        var summary = FetchSummary()
        (summary.pages, summary.received) = (1, 100)
        display.update(summary)
        (summary.pages, summary.received) = (2, 200)
        display.update(summary)
        display.finish()
        #expect(sink.chunks.count == 3)
        #expect(sink.chunks[0].hasPrefix("\rfetching: page 1/5, 100 photos, "))
        #expect(sink.chunks[1].hasPrefix("\rfetching: page 2/5, 200 photos, "))
        #expect(sink.chunks[1].contains("photos/s"))
        #expect(sink.chunks[2] == "\n")
    }

    @Test("a display that never drew writes no newline")
    func finishWithoutUpdates() {
        let sink = Sink()
        ProgressDisplay(pageLimit: 5) { sink.chunks.append($0) }.finish()
        #expect(sink.chunks.isEmpty)
    }

    @Test("under --quiet nothing is drawn, terminal or not")
    func quiet() {
        let display = ProgressDisplay.onStandardError(pageLimit: 5, quiet: true)
        #expect(!display.isDrawing)
    }
}
