import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

@Suite(.onTestThreads) struct TitleRulesTests {
    @Test(arguments: [
        ("  Sunset  ", " Over the sea \n", "Sunset", "Over the sea"),
        ("", "A description", "A description", ""),
        (" \t\n", "  A description  ", "A description", ""),
        ("", "", "Unknown", ""),
        ("   ", "\n ", "Unknown", ""),
        ("\u{3000}東京\u{3000}", "", "東京", ""),
        ("\u{A0}", "\u{A0}x", "x", ""),
    ])
    func rules(title: String, description: String, expectedTitle: String, expectedSubtitle: String) {
        let result = TitleRules.apply(title: title, description: description)
        #expect(result.title == expectedTitle)
        #expect(result.subtitle == expectedSubtitle)
    }

    @Test func missingTitleAndDescriptionGiveUnknown() {
        #expect(TitleRules.apply(title: nil, description: nil) == ("Unknown", ""))
    }

    @Test func descriptionMayBeAPlainStringMissingOrAnObjectWithoutContent() throws {
        #expect(try onlyPhoto(photoJSON(#""title":"","description":"plain""#))?.title == "plain")
        #expect(try onlyPhoto(photoJSON(#""title":"","description":null"#))?.title == "Unknown")
        #expect(try onlyPhoto(photoJSON(#""description":{"other":1}"#))?.subtitle == "")
        #expect(try onlyPhoto(photoJSON(#""title":{"_content":" wrapped "}"#))?.title == "wrapped")
    }

    @Test func numericTitleIsText() throws {
        #expect(try onlyPhoto(photoJSON(#""title":2017"#))?.title == "2017")
    }
}
