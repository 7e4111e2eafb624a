import Foundation

/// A one-line fetch meter for someone watching a terminal; silent under cron, in pipes and with `--quiet`.
final class ProgressDisplay {
    private let pageLimit: Int
    private let write: ((String) -> Void)?
    private let start = ContinuousClock.now
    private var lastLength = 0

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

    /// Redraws the line in place; spaces wipe what a longer previous line left behind.
    func update(_ summary: FetchSummary) {
        guard let write else { return }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        let rate = seconds > 0 ? Double(summary.received) / seconds : 0
        let line = "fetching: page \(summary.pages)/\(pageLimit), \(summary.received) photos, "
            + String(format: "%.1f photos/s", rate)
        write("\r" + line + String(repeating: " ", count: max(0, lastLength - line.count)))
        lastLength = line.count
    }

    /// Ends the line so the next output starts on its own line.
    func finish() {
        guard lastLength > 0 else { return }
        write?("\n")
        lastLength = 0
    }
}
