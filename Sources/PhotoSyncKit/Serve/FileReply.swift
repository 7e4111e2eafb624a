import Foundation

/// A downloaded file as a response: ETag and Last-Modified from its size and time, `304 Not
/// Modified` for a cache that has it, one `Range` served as 206 (416 when outside the file).
enum FileReply {
    static func make(path: String, head: HTTPRequestHead) -> HTTPReply? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        let etag = "\"\(String(size, radix: 16))-\(String(info.st_mtim.tv_sec, radix: 16))-\(String(info.st_mtim.tv_nsec, radix: 16))\""
        var reply = HTTPReply(status: 200, contentType: FilePath.contentType(path))
        reply.headers += [("ETag", etag), ("Last-Modified", httpDate(modified)), ("Cache-Control", "private, max-age=3600"),
                          ("Accept-Ranges", "bytes")]
        if notModified(head, etag: etag, modified: modified) {
            reply.status = 304
            return reply
        }
        var range = 0..<size
        if let header = head.header("range"), head.header("if-range").map({ $0 == etag }) ?? true {
            guard let wanted = byteRange(header, size: size) else {
                reply.status = 416
                reply.set("Content-Range", "bytes */\(size)")
                return reply
            }
            if let wanted {
                range = wanted
                reply.status = 206
                reply.headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(size)"))
            }
        }
        guard let body = read(path, range) else { return nil }
        reply.body = body
        return reply
    }

    /// `If-None-Match` decides when present; else `If-Modified-Since`.
    static func notModified(_ head: HTTPRequestHead, etag: String, modified: Date) -> Bool {
        if let tags = head.header("if-none-match") {
            return tags == "*" || tags.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "") == etag }
        }
        guard let since = head.header("if-modified-since").flatMap(parseHTTPDate) else { return false }
        return modified <= since
    }

    /// One `bytes=` range within `size`: `.some(nil)` means serve it whole (several ranges, or a
    /// unit we don't know); nil means unsatisfiable.
    static func byteRange(_ header: String, size: Int) -> Range<Int>?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .some(nil) }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .some(nil) }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces)), last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case (let first?, let last?) where first <= last && first < size: return first..<min(last + 1, size)
        case (let first?, nil) where spec[1].isEmpty && first < size: return first..<size
        case (nil, let suffix?) where spec[0].isEmpty && suffix > 0 && size > 0: return max(0, size - suffix)..<size
        case (nil, nil), (_?, nil), (nil, _?): return spec[0].isEmpty && spec[1].isEmpty ? .some(nil) : nil
        default: return nil
        }
    }

    private static func read(_ path: String, _ range: Range<Int>) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            return try handle.read(upToCount: range.count) ?? Data()
        } catch {
            return nil
        }
    }
}
