import Foundation
import Synchronization

/// The one line at the bottom of a terminal that is redrawn in place (the fetch's progress bar),
/// and every other stderr write, which must not land on it.
///
/// A notice written while the bar shows would be printed onto the bar's line and leave the bar's
/// old text on screen. So every stderr write goes through here: the bar's line is cleared, the
/// text printed, and the bar redrawn below it, as pip, cargo and apt do. One lock orders the
/// writes of every thread (the page downloader warns while the saver redraws).
final class StatusLine: Sendable {
    /// stderr, for the whole process.
    static let standardError = StatusLine { FileHandle.standardError.write(Data($0.utf8)) }

    private let sink: @Sendable (String) -> Void
    /// What draws the line on screen now, nil when none. A renderer rather than its text: a line
    /// redrawn below a notice is fitted again to the terminal's width, which may have changed.
    private let shown = Mutex<(@Sendable () -> String)?>(nil)

    /// `sink` receives every byte written (tests pass a collector).
    init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Erase the current line: return to its start and clear to its end.
    static let erase = "\r\u{1B}[K"

    /// Draws `line` in place of the current status line. `line` must fit the terminal's width, so
    /// that the next `\r` returns to its start.
    func show(_ line: String) {
        show { line }
    }

    /// Draws what `render` returns now, and again (called anew) each time the line is redrawn.
    func show(_ render: @escaping @Sendable () -> String) {
        shown.withLock { shown in
            sink(Self.erase + render())
            shown = render
        }
    }

    /// Erases the status line, so nothing of it is left on screen.
    func clear() {
        shown.withLock { shown in
            guard shown != nil else { return }
            sink(Self.erase)
            shown = nil
        }
    }

    /// Draws the line again, fitted anew (the terminal was resized); nothing when none shows.
    func redraw() {
        shown.withLock { shown in
            guard let render = shown else { return }
            sink(Self.erase + render())
        }
    }

    /// Writes `text` (whole lines) above the status line: erase it, print, draw it again below.
    func printAbove(_ text: String) {
        shown.withLock { shown in
            guard let render = shown else { return sink(text) }
            sink(Self.erase + text + render())
        }
    }
}
