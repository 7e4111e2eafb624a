import Foundation

/// What a cut transfer left beside its `.part` file, so the next run can continue it with a
/// `Range` request: the URL and the validator the server gave. Written only when the server said
/// `Accept-Ranges: bytes` and sent an `ETag` or `Last-Modified`; without one, a resumed file
/// could mix two versions of the image, so the transfer starts again.
struct PartialTransfer: Equatable {
    var url: String
    /// The `ETag`, else `Last-Modified`, of the response whose bytes the `.part` file holds.
    var validator: String

    static func path(forPart part: String) -> String { part + ".resume" }

    /// The validator a response offers for resuming, or nil when it cannot be resumed.
    static func validator(in headers: [String: String]) -> String? {
        guard headers["accept-ranges"]?.lowercased().contains("bytes") == true else { return nil }
        return headers["etag"] ?? headers["last-modified"]
    }

    /// The same validator the saved one was made from: `ETag` when it was one, else `Last-Modified`.
    func matches(_ headers: [String: String]) -> Bool {
        headers["etag"] == validator || headers["last-modified"] == validator
    }

    static func load(forPart part: String) -> PartialTransfer? {
        guard let text = try? String(contentsOfFile: path(forPart: part), encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else { return nil }
        return PartialTransfer(url: lines[0], validator: lines[1])
    }

    /// URLs and validators hold no newline (libcurl and the header parser would not pass one).
    func save(forPart part: String) {
        guard !url.contains("\n"), !validator.contains("\n") else { return }
        try? Data("\(url)\n\(validator)\n".utf8).write(to: URL(fileURLWithPath: Self.path(forPart: part)))
    }

    static func remove(forPart part: String) {
        unlink(path(forPart: part))
    }
}
