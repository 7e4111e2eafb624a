import Foundation

/// The text of the progress bar, fitted to a width.
///
/// From widest to narrowest: the full line; a shorter bar and rate; no rate; no ETA; no bar; the
/// page count alone, cut if need be. The first that fits is drawn, so a 120-column terminal shows
/// everything and a 40-column one still a one-line bar.
struct ProgressLine: Equatable {
    var pages: Int
    var expected: Int
    var photos: Int
    /// Photos per second so far.
    var rate: Double = 0
    /// nil until a page is saved and while none is left.
    var secondsLeft: Double?

    static let fullBar = 20
    static let shortBar = 10

    /// The widest variant of at most `width` characters (all ASCII: one column each).
    func text(fitting width: Int) -> String {
        let limit = max(1, width)
        let counts = ["\(pages)/\(expected) pages", "\(photos) photos"]
        let eta = secondsLeft.map { ["ETA \(ProgressDisplay.duration($0))"] } ?? []
        let variants = [
            joined(bar: Self.fullBar, counts + [String(format: "%.1f photos/s", rate)] + eta),
            joined(bar: Self.shortBar, counts + ["\(Int(rate.rounded()))/s"] + eta),
            joined(bar: Self.shortBar, counts + eta),
            joined(bar: Self.shortBar, counts),
            joined(bar: 0, counts),
            "\(pages)/\(expected)",
        ]
        return variants.first { $0.count <= limit } ?? String(variants.last!.prefix(limit))
    }

    /// `[####......] a, b, c`; no bar for a width of 0.
    private func joined(bar width: Int, _ fields: [String]) -> String {
        let text = fields.joined(separator: ", ")
        guard width > 0 else { return text }
        let filled = expected > 0 ? min(width, width * pages / expected) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + text
    }
}
