import Testing
@testable import PhotoSyncKit

@Suite("Progress display")
struct ProgressDisplayTests {
    /// Collects what the display writes.
    final class Sink {
        var chunks: [String] = []
    }

    @Test("a bar from the first request, redrawn in place per page, cleared at the end")
    func redraws() {
        let sink = Sink()
        let display = ProgressDisplay(pageLimit: 5) { sink.chunks.append($0) }
        display.begin()
        var summary = FetchSummary()
        (summary.pages, summary.received) = (1, 100)
        display.update(summary)
        (summary.pages, summary.received) = (2, 200)
        display.update(summary, expected: 4)
        display.finish()
        #expect(sink.chunks.count == 4)
        #expect(sink.chunks[0].hasPrefix("\r\u{1B}[K[....................] 0/5 pages, 0 photos, ") && !sink.chunks[0].contains("ETA"))
        #expect(sink.chunks[1].hasPrefix("\r\u{1B}[K[####................] 1/5 pages, 100 photos, "))
        #expect(sink.chunks[1].contains("photos/s, ETA "))
        #expect(sink.chunks[2].hasPrefix("\r\u{1B}[K[##########..........] 2/4 pages, 200 photos, "))
        #expect(sink.chunks[3] == "\r\u{1B}[K")
        #expect(display.last.pages == 2)
    }

    @Test("durations read as seconds, minutes or hours")
    func durations() {
        #expect(ProgressDisplay.duration(4.2) == "5s")
        #expect(ProgressDisplay.duration(185) == "3m05s")
        #expect(ProgressDisplay.duration(3720) == "1h02m")
    }

    @Test("a display that never drew writes nothing at the end")
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
