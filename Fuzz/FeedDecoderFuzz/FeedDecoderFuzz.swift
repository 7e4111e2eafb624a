// libFuzzer entry point for `FeedDecoder.decode`, compiled by `make fuzz` with swiftc
// directly against Sources/PhotoFeed/Feed/*.swift (not part of `swift build`):
//
//     swiftc -parse-as-library -sanitize=fuzzer,address -module-name PhotoFeed \
//         Sources/PhotoFeed/Feed/*.swift Fuzz/FeedDecoderFuzz/FeedDecoderFuzz.swift
//
// Besides "never crash, never hang", it checks what the decoder promises for every page it
// accepts: usable ids only (1–64 ASCII letters or digits), no id twice, non-negative counters,
// and a non-empty owner name. A broken promise traps, and libFuzzer saves the input.

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
    var seen = Set<String>()
    for photo in page.photos {
        let id = photo.id.utf8
        precondition(!id.isEmpty && id.count <= 64, "id length \(id.count)")
        precondition(id.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }, "id charset")
        precondition(seen.insert(photo.id).inserted, "duplicate id \(photo.id)")
        precondition(!photo.ownerName.isEmpty, "empty owner name")
    }
    return 0
}
