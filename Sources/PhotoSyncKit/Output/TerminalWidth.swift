import Foundation

/// How wide a table may be: `COLUMNS` when set to a number, else the width of the terminal on
/// stdout; nil (no limit) when stdout is a file or a pipe, so scripts get whole titles.
enum TerminalWidth {
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
