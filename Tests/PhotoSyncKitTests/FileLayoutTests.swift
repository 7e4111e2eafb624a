@testable import PhotoSyncKit
import PhotoSyncTestSupport
import Testing

/// File names come only from the photo id (reduced to safe characters), the size and the
/// verified type: nothing a feed sends can put a file outside the folder.
@Suite("file layout", .onTestThreads)
struct FileLayoutTests {
    @Test(arguments: ["../../etc/passwd", "/etc/passwd", "..", ".", "a/b", "a\0b", "", "фото", "a_5F"])
    func hostileIDsGiveOneNameInsideTheFolder(_ id: String) {
        let name = FileLayout.name(photoID: id, size: "l", type: .jpeg)
        #expect(!name.contains("/") && !name.contains("\0") && !name.hasPrefix("."), "\(name)")
        #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }, "\(name)")
        #expect(name.hasSuffix("_l.jpg"))
    }

    @Test func distinctIDsNeverShareAName() {
        let ids = ["a_b", "a/b", "a.b", "a_2Fb", "a-b", "ab", "a b"]
        #expect(Set(ids.map { FileLayout.name(photoID: $0, size: "l", type: .png) }).count == ids.count)
    }

    @Test func theExtensionComesFromTheVerifiedType() {
        #expect(FileLayout.name(photoID: "53719862871", size: "o", type: .png) == "53719862871_o.png")
        #expect(FileLayout.name(photoID: "1", size: "l", type: .jpeg) == "1_l.jpg")
        #expect(FileLayout.temporaryName(photoID: "1", size: "l") == ".1_l.part")
    }

    @Test func signaturesAreToldApartAndHTMLIsNone() {
        #expect(ImageType.detect([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 8)) == .jpeg)
        #expect(ImageType.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]) == .png)
        #expect(ImageType.detect(Array("GIF89a\0\0\0\0\0\0".utf8)) == .gif)
        #expect(ImageType.detect(Array("RIFF\u{1}\0\0\0WEBP".utf8)) == .webp)
        #expect(ImageType.detect(Array("RIFF\u{1}\0\0\0WAVE".utf8)) == nil)
        #expect(ImageType.detect(Array("<!DOCTYPE html>".utf8)) == nil)
        #expect(ImageType.detect([0xFF, 0xD8]) == nil)
    }
}

@Suite("SHA-256", .onTestThreads)
struct SHA256Tests {
    /// libcrypto's, as every download uses here, and the Swift one a system without it uses.
    static let engines: [@Sendable () -> SHA256] = [{ SHA256() }, { SHA256.inSwift() }]

    static func digest(_ chunks: [[UInt8]], _ engine: () -> SHA256) -> String {
        var hash = engine()
        chunks.forEach { hash.update($0) }
        return hash.finish()
    }

    @Test func libcryptoIsLoaded() {
        #expect(LibcryptoSHA256() != nil, "libcrypto.so.3 did not load: downloads would hash in Swift, eight times slower")
    }

    @Test(arguments: engines.indices) func knownVectors(_ engine: Int) {
        let make = Self.engines[engine]
        #expect(Self.digest([], make) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.digest([Array("abc".utf8)], make) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.digest([Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)], make)
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// A stream cut into odd chunks hashes as the whole: a million "a" (FIPS 180-2's third vector).
    @Test(arguments: engines.indices) func chunkBoundariesDoNotMatter(_ engine: Int) {
        let chunks = stride(from: 0, to: 1_000_000, by: 997).map { [UInt8](repeating: UInt8(ascii: "a"), count: min(997, 1_000_000 - $0)) }
        #expect(Self.digest(chunks, Self.engines[engine]) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
