// libFuzzer entry point for `FeedDecoder.decode`, compiled by `make fuzz` with swiftc
// directly against Sources/PhotoFeed/Feed/*.swift (not part of `swift build`):
//
//     swiftc -parse-as-library -sanitize=fuzzer,address -module-name PhotoFeed \
//         Sources/PhotoFeed/Feed/*.swift Fuzz/FeedDecoderFuzz/FeedDecoderFuzz.swift
//
// Besides "never crash, never hang", the oracle is the decoder's documented rules (FeedPhoto,
// TextCap, README "Hostile values from the feed") for every page it accepts: non-negative
// counters; ids of 1–64 ASCII letters or digits; owner id and name never empty, at most 1 KiB;
// a title never empty and title and description at most 64 KiB; an image URL; an upload time
// of whole seconds within 1970–2099 or none; and the same input decoding to the same page.
// A repeated id is NOT a broken promise: every copy reaches the importer, in order
// (PhotoItemRulesTests.duplicateIDsAreAllKeptInOrder), which judges repeats. A broken promise
// traps, and libFuzzer saves the input.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

private let earliest = Date(timeIntervalSince1970: 0)
private let latest = Date(timeIntervalSince1970: 4_102_444_799)  // 2099-12-31T23:59:59Z

@_cdecl("LLVMFuzzerTestOneInput")
public func feedDecoderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let page: FeedPage
    do {
        page = try FeedDecoder.decode(body)
    } catch {
        switch error {
        case .malformed(let message): precondition(!message.contains("\n"), "multi-line error text")
        case .api: break
        }
        return 0
    }
    precondition(page.page >= 0 && page.pages >= 0 && page.perPage >= 0 && page.total >= 0, "negative counter")
    for photo in page.photos {
        let id = photo.id.utf8
        precondition(!id.isEmpty && id.count <= 64, "id length \(id.count)")
        precondition(id.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }, "id charset")
        precondition(!photo.ownerName.isEmpty && photo.ownerName.utf8.count <= 1024, "owner name \(photo.ownerName.utf8.count) bytes")
        precondition(!photo.ownerID.isEmpty && photo.ownerID.utf8.count <= 1024, "owner id \(photo.ownerID.utf8.count) bytes")
        precondition(!photo.title.isEmpty && photo.title.utf8.count <= 64 * 1024, "title \(photo.title.utf8.count) bytes")
        precondition(photo.subtitle.utf8.count <= 64 * 1024, "description \(photo.subtitle.utf8.count) bytes")
        precondition(!photo.imageURL.isEmpty, "no image URL")
        if let uploaded = photo.uploaded {
            let seconds = uploaded.timeIntervalSince1970
            precondition(uploaded >= earliest && uploaded <= latest && seconds == seconds.rounded(), "upload time \(seconds)")
        }
    }
    precondition((try? FeedDecoder.decode(body)) == page, "the same input decoded to another page")
    return 0
}
