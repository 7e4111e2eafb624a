import PhotoSyncTestSupport
import Testing

/// The test helper that stands in for a terminal emulator (`ProgressBarTerminalTests`) must
/// itself behave like one, or the progress bar tests prove nothing.
@Suite("terminal screen emulator", .onTestThreads)
struct TerminalScreenTests {
    @Test("a carriage return and erase-in-line redraw in place")
    func redrawInPlace() {
        var screen = TerminalScreen(columns: 20, rows: 3)
        screen.feed("\r\u{1B}[K[#.] 1/2 pages\r\u{1B}[K[##] 2/2\r\u{1B}[K")
        #expect(screen.nonEmptyLines.isEmpty)
        screen.feed("abc\r\nxy\rz")
        #expect(screen.nonEmptyLines == ["abc", "zy"])
    }

    @Test("a line longer than the width wraps once the next character comes (deferred wrap)")
    func deferredWrap() {
        var screen = TerminalScreen(columns: 5, rows: 3)
        screen.feed("12345")
        #expect(screen.wrapped.isEmpty && screen.lines[1].isEmpty, "the cursor waits in the last column")
        screen.feed("6")
        #expect(screen.lines[0] == "12345" && screen.lines[1] == "6" && screen.continues[1])
        #expect(screen.wrapped == ["12345"])
        screen.feed("\r\u{1B}[K")
        #expect(screen.lines[0] == "12345" && screen.lines[1].isEmpty, "\\r returns only to the start of the last row: the fragment stays")
    }

    @Test("the screen scrolls at the bottom")
    func scrolls() {
        var screen = TerminalScreen(columns: 4, rows: 2)
        screen.feed("a\r\nb\r\nc")
        #expect(screen.lines == ["b", "c"])
    }
}
