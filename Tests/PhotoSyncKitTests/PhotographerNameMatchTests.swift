import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

@Suite("photographer names as typed", .onTestThreads)
struct PhotographerNameMatchTests {
    static let names = ["Ana Lima", "Ana Luz", "Bo Chen", "Straße Foto"]

    @Test("an exact name wins, even beside one equal ignoring case")
    func exactWins() {
        #expect(PhotographerNameMatch.resolve("Ana Lima", among: Self.names + ["ANA LIMA"]) == .exact("Ana Lima"))
    }

    @Test("one name equal after full case folding is taken")
    func oneFolded() {
        #expect(PhotographerNameMatch.resolve("ana lima", among: Self.names) == .caseFolded("Ana Lima"))
        #expect(PhotographerNameMatch.resolve("STRASSE FOTO", among: Self.names) == .caseFolded("Straße Foto"))
    }

    @Test("several equal ignoring case, a prefix, a typo or nothing: suggestions only")
    func suggestions() {
        #expect(PhotographerNameMatch.resolve("ana lima", among: ["Ana Lima", "ANA LIMA"]) == .unknown(suggestions: ["ANA LIMA", "Ana Lima"]))
        #expect(PhotographerNameMatch.resolve("Ana", among: Self.names) == .unknown(suggestions: ["Ana Lima", "Ana Luz"]))
        #expect(PhotographerNameMatch.resolve("bo chem", among: Self.names) == .unknown(suggestions: ["Bo Chen"]))
        #expect(PhotographerNameMatch.resolve("Zed", among: Self.names) == .unknown(suggestions: []))
    }

    @Test("the message lists the suggestions")
    func message() {
        #expect(PhotographerNameMatch.unknownMessage("Ana", suggestions: ["Ana Lima", "Ana Luz"])
            == "no photographer named 'Ana'; did you mean 'Ana Lima' or 'Ana Luz'?")
        #expect(PhotographerNameMatch.unknownMessage("Zed", suggestions: []) == "no photographer named 'Zed'")
    }
}
