@testable import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// Strings are scanned eight bytes at a time: a quote, backslash or control byte must be found
/// wherever it falls in a word, and ordinary bytes (non-ASCII included) must never stop the scan.
@Suite(.onTestThreads) struct StringScanTests {
    private static let special: [UInt8] = [0x22, 0x5C] + Array(0x00..<0x20)

    @Test func wordTestFindsTheFirstSpecialByteLikeAByteByByteCheck() {
        var generator = SystemRandomNumberGenerator()
        let ordinary = (0x20...0xFF).map(UInt8.init).filter { $0 != 0x22 && $0 != 0x5C }
        for _ in 0..<20_000 {
            var bytes = (0..<8).map { _ in ordinary.randomElement(using: &generator)! }
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                bytes[Int.random(in: 0..<8, using: &generator)] = Self.special.randomElement(using: &generator)!
            }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            let found = JSONReader.specialBytes(word)
            let first = bytes.firstIndex(where: Self.special.contains)
            #expect((found == 0) == (first == nil), "\(bytes)")
            if let first { #expect(found.trailingZeroBitCount / 8 == first, "\(bytes)") }
        }
    }

    @Test func titlesOfEveryLengthWithAnEscapeAtEveryOffset() throws {
        for length in 1..<20 {  // an empty title would fall back to the description
            for offset in 0...length {
                let (before, after) = (String(repeating: "é", count: offset), String(repeating: "a", count: length - offset))
                let plain = try #require(try onlyPhoto(photoJSON(#""title":"\#(before + after)""#)))
                #expect(plain.title == before + after)
                let escaped = try #require(try onlyPhoto(photoJSON(#""title":"\#(before)\"\#(after)""#)))
                #expect(escaped.title == before + "\"" + after, "length \(length), offset \(offset)")
            }
        }
    }

    @Test func aControlByteAtAnyOffsetIsASyntaxError() {
        for offset in 0..<20 {
            let title = String(repeating: "a", count: offset) + "\u{1}" + "bcdefghij"
            #expect(malformedMessage(pageJSON(photoJSON(#""title":"\#(title)""#)))?.contains("control character") == true,
                    "offset \(offset)")
            #expect(malformedMessage(pageJSON(photoJSON(#""skipped":"\#(title)""#)))?.contains("control character") == true,
                    "skipped value, offset \(offset)")
        }
    }

    /// A string cut off within the last word of the body ends the scan at the end, not past it.
    @Test func anUnterminatedStringNearTheEndIsAnUnexpectedEnd() {
        for length in 0..<12 {
            let body = #"{"photos":{"page":1,"pages":1,"perpage":1,"total":1,"photo":[{"id":""# + String(repeating: "a", count: length)
            #expect(malformedMessage(body)?.contains("unexpected end") == true, "length \(length)")
        }
    }
}
