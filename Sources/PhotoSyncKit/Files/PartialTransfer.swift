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

    /// The note a cut transfer left beside `part`, removed as it is read (a transfer uses it once).
    /// Most transfers find none: one failed `open`, and nothing to remove.
    static func take(forPart part: String) -> PartialTransfer? {
        let note = path(forPart: part)
        let descriptor = open(note, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            if errno != ENOENT { unlink(note) }
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        unlink(note)
        let lines = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else { return nil }
        return PartialTransfer(url: lines[0], validator: lines[1])
    }

    /// URLs and validators hold no newline (libcurl and the header parser would not pass one).
    func save(forPart part: String) {
        guard !url.contains("\n"), !validator.contains("\n") else { return }
        try? Data("\(url)\n\(validator)\n".utf8).write(to: URL(fileURLWithPath: Self.path(forPart: part)))
    }
}
