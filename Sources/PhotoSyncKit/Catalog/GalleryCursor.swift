import Foundation

/// Where a gallery page starts: just after this photo in the newest-first order (upload time
/// descending, photos without one last, ties by id descending). A keyset, so page 100 reads what
/// page 1 does instead of skipping 2,400 rows.
///
/// In a URL: `<unix seconds>~<id>`, or `-~<id>` for a photo without an upload time.
public struct GalleryCursor: Sendable, Equatable {
    public var uploaded: Date?
    public var id: String

    public init(uploaded: Date?, id: String) {
        (self.uploaded, self.id) = (uploaded, id)
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "~", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty else { return nil }
        if parts[0] == "-" {
            uploaded = nil
        } else if let seconds = Int64(parts[0]) {
            uploaded = Date(timeIntervalSince1970: TimeInterval(seconds))
        } else {
            return nil
        }
        id = String(parts[1])
    }

    public var text: String {
        (uploaded.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? "-") + "~" + id
    }
}
