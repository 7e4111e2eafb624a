import Foundation

/// A one-line fetch meter for someone watching a terminal; silent under cron, in pipes and with `--quiet`.
///
/// `[#####.....] 3/10 pages, 1500 photos, 420.5 photos/s, ETA 12s`: drawn from the first request
/// (before any page arrives), redrawn after each saved page, and cleared at the end so the summary
/// starts on a clean line.
final class ProgressDisplay {
    private let pageLimit: Int
    private let write: ((String) -> Void)?
    private let start = ContinuousClock.now
    private var drawn = false
    /// The counts after the last saved page (what an interrupted run has kept).
    private(set) var last = FetchSummary()

    static let barWidth = 20

    /// `write` receives each redraw; nil disables the display.
    init(pageLimit: Int, write: ((String) -> Void)?) {
        self.pageLimit = pageLimit
        self.write = write
    }

    /// Draws on stderr only when stderr is a terminal and the user did not ask for quiet.
    static func onStandardError(pageLimit: Int, quiet: Bool) -> ProgressDisplay {
        let drawing = !quiet && isatty(2) == 1
        return ProgressDisplay(pageLimit: pageLimit, write: drawing ? { Console.writeError($0) } : nil)
    }

    /// Whether updates reach the terminal.
    var isDrawing: Bool { write != nil }

    /// The line before the first page: the request is on its way.
    func begin() {
        draw(line(pages: 0, photos: 0, expected: pageLimit))
    }

    /// Redraws the line in place after a saved page. `expected` is the pages the walk will ask for
    /// as the feed last reported them (the page limit until a response says fewer).
    func update(_ summary: FetchSummary, expected: Int? = nil) {
        last = summary
        draw(line(pages: summary.pages, photos: summary.received, expected: max(summary.pages, expected ?? pageLimit)))
    }

    /// Clears the line so the next output starts at its beginning.
    func finish() {
        guard drawn else { return }
        write?("\r\u{1B}[K")
        drawn = false
    }

    private func draw(_ line: String) {
        guard let write else { return }
        write("\r\u{1B}[K" + line)
        drawn = true
    }

    private func line(pages: Int, photos: Int, expected: Int) -> String {
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let rate = seconds > 0 ? Double(photos) / seconds : 0
        let filled = expected > 0 ? min(Self.barWidth, Self.barWidth * pages / expected) : 0
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: Self.barWidth - filled) + "]"
        var text = "\(bar) \(pages)/\(expected) pages, \(photos) photos, " + String(format: "%.1f photos/s", rate)
        if pages > 0, pages < expected {
            let remaining = seconds / Double(pages) * Double(expected - pages)
            text += ", ETA \(Self.duration(remaining))"
        }
        return text
    }

    /// `42s`, `3m05s`, `1h02m`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return String(format: "%dm%02ds", total / 60, total % 60) }
        return String(format: "%dh%02dm", total / 3600, total % 3600 / 60)
    }
}
