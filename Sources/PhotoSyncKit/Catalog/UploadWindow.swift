import Foundation

/// A span of upload times, in whole Unix seconds, both ends included (as Flickr's
/// `min_upload_date` and `max_upload_date` are): a slice of a search that returns more results than
/// Flickr serves (issue 25, part 2).
///
/// `flickr.photos.search` serves only the first 4,000 results of a query; asked for pages past
/// them, it answers with pages it already sent. A query over the cap is split into windows, each
/// judged by its own response's `total` and halved until it fits.
struct UploadWindow: Equatable, Hashable, Comparable {
    /// Results Flickr serves of one query.
    static let cap = 4_000

    var from: Int
    var to: Int

    /// One second wide: it cannot be split further.
    var isOneSecond: Bool { from >= to }

    /// The bounds as a search's `min_upload_date` and `max_upload_date`.
    var fromDate: Date { Date(timeIntervalSince1970: Double(from)) }
    var toDate: Date { Date(timeIntervalSince1970: Double(to)) }

    /// The older and the newer half.
    var halves: (older: UploadWindow, newer: UploadWindow) {
        let middle = from + (to - from) / 2
        return (UploadWindow(from: from, to: middle), UploadWindow(from: middle + 1, to: to))
    }

    static func < (lhs: UploadWindow, rhs: UploadWindow) -> Bool { (lhs.from, lhs.to) < (rhs.from, rhs.to) }

    /// The parts of `self` no window of `done` covers, oldest first.
    func uncovered(by done: [UploadWindow]) -> [UploadWindow] {
        var parts: [UploadWindow] = []
        var next = from
        for window in done.sorted() where window.to >= next && window.from <= to {
            if window.from > next { parts.append(UploadWindow(from: next, to: window.from - 1)) }
            next = max(next, window.to + 1)
        }
        if next <= to { parts.append(UploadWindow(from: next, to: to)) }
        return parts
    }

    var description: String { "\(timestamp(Date(timeIntervalSince1970: Double(from)))) to \(timestamp(Date(timeIntervalSince1970: Double(to))))" }
}
