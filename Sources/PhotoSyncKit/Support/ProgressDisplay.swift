import Foundation

/// A one-line fetch meter for someone watching a terminal; silent under cron, in pipes and with `--quiet`.
///
/// `[#####.....] 3/10 pages, 1500 photos, 420.5 photos/s, ETA 12s`: drawn from the first request
/// (before any page arrives), redrawn after each saved page, and cleared at the end so the summary
/// starts on a clean line, and fitted again when the terminal is resized. The line never reaches the terminal's last column: a line that wraps
/// cannot be redrawn in place, and each redraw would leave a fragment behind (`ProgressLine`).
final class ProgressDisplay {
    private let pageLimit: Int
    private let statusLine: StatusLine?
    private let width: @Sendable () -> Int
    /// Redraws the line when the terminal is resized and nothing else would (on a terminal only).
    private let resizeWatch: TerminalResizeWatch?
    private let start = ContinuousClock.now
    /// The counts after the last saved page (what an interrupted run has kept).
    private(set) var last = FetchSummary()

    /// `statusLine` receives each redraw (nil disables the display); `width` is read at each
    /// redraw, a bar redrawn below a notice included, so a resized terminal (SIGWINCH) gets a line
    /// that fits it from the next redraw on.
    /// `watchingResizes`: redraw on SIGWINCH too, between pages.
    init(pageLimit: Int, statusLine: StatusLine?, width: @escaping @Sendable () -> Int = { 80 }, watchingResizes: Bool = false) {
        self.pageLimit = pageLimit
        self.statusLine = statusLine
        self.width = width
        resizeWatch = watchingResizes ? statusLine.flatMap { line in TerminalResizeWatch { line.redraw() } } : nil
    }

    /// Draws on stderr only when stderr is a terminal and the user did not ask for quiet.
    static func onStandardError(pageLimit: Int, quiet: Bool) -> ProgressDisplay {
        let drawing = !quiet && isatty(STDERR_FILENO) == 1
        return ProgressDisplay(pageLimit: pageLimit, statusLine: drawing ? .standardError : nil, width: standardErrorWidth,
                               watchingResizes: drawing)
    }

    /// The terminal's width on stderr, asked at each redraw (the cost of an ioctl per page); 80 when unknown.
    static func standardErrorWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Whether updates reach the terminal.
    var isDrawing: Bool { statusLine != nil }

    /// The line before the first page: the request is on its way.
    func begin() {
        draw(pages: 0, photos: 0, expected: pageLimit)
    }

    /// Redraws the line in place after a saved page. `expected` is the pages the walk will ask for
    /// as the feed last reported them (the page limit until a response says fewer).
    func update(_ summary: FetchSummary, expected: Int? = nil) {
        last = summary
        draw(pages: summary.pages, photos: summary.received, expected: max(summary.pages, expected ?? pageLimit))
    }

    /// Clears the line so the next output starts at its beginning and nothing of the bar remains.
    func finish() {
        resizeWatch?.stop()
        statusLine?.clear()
    }

    private func draw(pages: Int, photos: Int, expected: Int) {
        guard let statusLine else { return }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        var progress = ProgressLine(pages: pages, expected: expected, photos: photos)
        progress.rate = seconds > 0 ? Double(photos) / seconds : 0
        if pages > 0, pages < expected { progress.secondsLeft = seconds / Double(pages) * Double(expected - pages) }
        // The last column stays empty: writing it leaves some terminals waiting to wrap.
        statusLine.show { [width, progress] in progress.text(fitting: width() - 1) }
    }

    /// `42s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm%02ds", total / 60, total % 60) }
        return String(format: "%dh%02dm", total / 3600, total % 3600 / 60)
    }
}
