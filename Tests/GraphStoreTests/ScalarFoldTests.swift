import PhotoSyncTestSupport
import Testing
@testable import GraphStore

/// `ScalarFold`: where it folds a text scalar by scalar, it must give the full fold's bytes exactly,
/// whatever stands next to each scalar.
@Suite(.onTestThreads) struct ScalarFoldTests {
    /// The fast fold of `text`, or nil where it defers to the full fold.
    static func fast(_ text: String) -> String? {
        var bytes: [UInt8] = []
        let folded = Array(text.utf8).withUnsafeBytes { ScalarFold.fold($0, into: &bytes) }
        return folded ? String(decoding: bytes, as: UTF8.self) : nil
    }

    @Test func everyScalarItFoldsFoldsAsTheFullFoldBetweenNeighbours() {
        var mismatches: [String] = []
        var folded = 0
        let values = Array(0x80..<0x3100) + Array(stride(from: 0x4E00, through: 0x9FFF, by: 7)) + Array(0xFE00...0xFE0F)
        for value in values {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let x = String(Character(scalar))
            for text in ["A\(x)b", "\(x)\(x)É", "ΣΟΦ\(x)Σ", "\(x)ß"] {
                guard let fast = Self.fast(text) else { continue }
                folded += 1
                if Array(fast.utf8) != Array(FoldFunction.fold(text).utf8) { mismatches.append("U+\(String(value, radix: 16)) in \(text.debugDescription)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
        #expect(folded > 20_000)
    }

    @Test func marksJamoAndBadBytesTakeTheFullFold() {
        for text in ["e\u{301}", "\u{1100}\u{1161}", "가", "𝐀", "ﬀ"] {
            #expect(Self.fast(text) == nil, "\(text.debugDescription)")
        }
        var bytes: [UInt8] = []
        #expect(![0xC3, 0x28].withUnsafeBytes { ScalarFold.fold($0, into: &bytes) })
        #expect(Self.fast("Straße ÉTÉ 東京 Москва").map { Array($0.utf8) } == Array("strasse été 東京 москва".utf8))
    }
}
