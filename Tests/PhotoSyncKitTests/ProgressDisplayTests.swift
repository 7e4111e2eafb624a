import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("Progress display", .onTestThreads)
struct ProgressDisplayTests {
    /// Collects what the display writes.
    final class Sink: @unchecked Sendable {
        var chunks: [String] = []
        var line: StatusLine { StatusLine { [self] in chunks.append($0) } }
    }

    @Test("a bar from the first request, redrawn in place per page, cleared at the end")
    func redraws() {
        let sink = Sink()
        let display = ProgressDisplay(pageLimit: 5, statusLine: sink.line, width: { 120 })
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

    @Test("the line fits the width: a shorter bar, then no rate, then no ETA", arguments: [120, 60, 40, 20, 8, 3])
    func fitsTheWidth(_ width: Int) {
        var line = ProgressLine(pages: 123, expected: 1000, photos: 61_500)
        (line.rate, line.secondsLeft) = (4321.5, 3725)
        let text = line.text(fitting: width - 1)
        #expect(text.count <= width - 1, "\(text)")
        if width >= 120 { #expect(text.contains("4321.5 photos/s, ETA 1h02m")) }
        if width == 60 { #expect(text.hasPrefix("[#.........] 123/1000 pages") && text.contains("ETA")) }
        if width == 40 { #expect(text.contains("123/1000 pages") && !text.contains("/s")) }
    }

    @Test("a line printed while the bar shows goes above it, and the bar is drawn again below")
    func printsAboveTheBar() {
        let sink = Sink()
        let line = sink.line
        line.printAbove("before\n")
        line.show("[##] 1/2 pages")
        line.printAbove("photosync: page 1: skipped 1 item(s)\n")
        line.clear()
        line.printAbove("after\n")
        #expect(sink.chunks == [
            "before\n", "\r\u{1B}[K[##] 1/2 pages", "\r\u{1B}[Kphotosync: page 1: skipped 1 item(s)\n[##] 1/2 pages",
            "\r\u{1B}[K", "after\n",
        ])
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
        ProgressDisplay(pageLimit: 5, statusLine: sink.line).finish()
        #expect(sink.chunks.isEmpty)
    }

    @Test("under --quiet nothing is drawn, terminal or not")
    func quiet() {
        let display = ProgressDisplay.onStandardError(pageLimit: 5, quiet: true)
        #expect(!display.isDrawing)
    }
}

@Suite("Progress display after a resize", .onTestThreads)
struct ProgressResizeTests {
    final class Width: @unchecked Sendable {
        var columns = 120
    }

    @Test("a bar redrawn below a notice fits the terminal's width at that moment")
    func refitsBelowANotice() {
        let sink = ProgressDisplayTests.Sink()
        let line = sink.line
        let width = Width()
        let display = ProgressDisplay(pageLimit: 10, statusLine: line, width: { width.columns })
        var summary = FetchSummary()
        (summary.pages, summary.received) = (1, 100)
        display.update(summary)
        #expect(sink.chunks.last!.count > 60)
        width.columns = 40
        line.printAbove("photosync: page 2: skipped 1 item(s)\n")
        let redrawn = sink.chunks.last!.split(separator: "\n").last!
        #expect(redrawn.count <= 39, "\(redrawn)")
    }

    @Test("a redraw (SIGWINCH) fits the new width, and does nothing once the bar is cleared")
    func redrawRefits() {
        let sink = ProgressDisplayTests.Sink()
        let (line, width) = (sink.line, Width())
        let display = ProgressDisplay(pageLimit: 10, statusLine: line, width: { width.columns })
        display.begin()
        width.columns = 30
        line.redraw()
        #expect(sink.chunks.count == 2 && sink.chunks.last!.hasPrefix(StatusLine.erase))
        #expect(sink.chunks.last!.dropFirst(StatusLine.erase.count).count <= 29, "\(sink.chunks)")
        display.finish()
        line.redraw()
        #expect(sink.chunks.last == StatusLine.erase, "\(sink.chunks)")
    }
}
