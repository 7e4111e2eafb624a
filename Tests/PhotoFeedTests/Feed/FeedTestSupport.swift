#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import PhotoFeed
import PhotoSyncTestSupport

/// The bytes of `Fixtures/feed/<name>`.
func fixture(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(filePath: packageRoot + "/Fixtures/feed/\(name)")))
}

func decode(_ json: String) throws(FeedError) -> FeedPage {
    try FeedDecoder.decode(Array(json.utf8))
}

/// The `.malformed` text for `body`, or nil when it decodes or fails otherwise.
func malformedMessage(_ body: [UInt8]) -> String? {
    do {
        _ = try FeedDecoder.decode(body)
        return nil
    } catch {
        guard case .malformed(let message) = error else { return nil }
        return message
    }
}

func malformedMessage(_ json: String) -> String? {
    malformedMessage(Array(json.utf8))
}

/// A one-page response around the given `photo` array elements (JSON text).
func pageJSON(_ items: String...) -> String {
    #"{"photos":{"page":1,"pages":1,"perpage":100,"total":"\#(items.count)","photo":[\#(items.joined(separator: ","))]},"stat":"ok"}"#
}

/// A complete, usable photo element; `extra` members are appended and override earlier ones.
func photoJSON(id: String = "53412345678", _ extra: String = "") -> String {
    let base = #""id":"\#(id)","owner":"52755911@N03","ownername":"Ana Lima","secret":"a1b2c3d4e5","server":"65535","title":"T","description":{"_content":"D"},"dateupload":"1717000000""#
    return "{" + base + (extra.isEmpty ? "" : "," + extra) + "}"
}

/// The single photo (or skip reason) that a one-element page yields.
func onlyPhoto(_ item: String) throws -> FeedPhoto? {
    try decode(pageJSON(item)).photos.first
}

func onlySkipReason(_ item: String) throws -> String? {
    try decode(pageJSON(item)).skipped.first?.reason
}
