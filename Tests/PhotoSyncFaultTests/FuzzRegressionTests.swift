import Foundation
import PhotoSyncTestSupport
@testable import PhotoFeed
import Testing

/// Inputs libFuzzer found (`make fuzz`), kept under Fixtures/fuzz-regressions/, in the style of
/// PhotoFeedTests' HostileBodyTests: never a crash, always one clear line.
@Suite("fuzz regressions: FeedDecoder.decode", .onTestThreads)
struct FuzzRegressionTests {
    static func regression(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Fixtures/fuzz-regressions/" + name)))
    }

    static func malformedMessage(_ body: [UInt8]) -> String? {
        do {
            _ = try FeedDecoder.decode(body)
            return nil
        } catch {
            guard case .malformed(let message) = error else { return nil }
            return message
        }
    }

    /// " /**/ " (a JSONP comment prefix followed by only whitespace), found by `make fuzz`, used to
    /// trap in JSONPUnwrapper.jsonRange ("Range requires lowerBound <= upperBound"): exit 132.
    @Test(arguments: ["jsonp-comment-then-whitespace.bin"])
    func jsonpCommentThenWhitespaceIsMalformedNotACrash(name: String) throws {
        let body = try Self.regression(name)
        #expect(body == Array(" /**/ ".utf8))
        let message = Self.malformedMessage(body)
        #expect(message != nil && message?.contains("\n") == false, "\(String(describing: message))")
        for variant in ["/**/ ", "/**/\n", "\t/**/\t", "/**/"] {
            #expect(Self.malformedMessage(Array(variant.utf8)) != nil, "\(variant.debugDescription)")
        }
    }
}
