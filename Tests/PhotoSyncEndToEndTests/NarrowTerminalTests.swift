import Foundation
import PhotoSyncTestSupport
import Testing

/// Issue 22, defects 3 and 4: tables never overflow the terminal. Below the narrowest useful
/// table `list` (and every table) shows one record per block; `status` fits a 60-column pane
/// and shows a run that warned of a gap as `succeeded (gap)`.
@Suite("narrow terminals", .onTestThreads)
struct NarrowTerminalTests {
    static let items = [
        FeedItem("53719862871", by: "Ana Lima de Souza Ferreira", title: "A very long title about the harbour at dawn"),
        FeedItem("53719862872", by: "Bo Chen", title: "Pier"),
    ]

    /// Terminal columns of a line (the tests' texts are ASCII but for "…").
    static func width(_ line: Substring) -> Int { line.count }

    @Test func belowTheNarrowestTableEachPhotoIsABlock() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 2))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            let narrow = try await photosync("list", environment: ["COLUMNS": "30"])
            #expect(narrow.status == 0, "\(narrow)")
            let lines = narrow.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.allSatisfy { Self.width($0) <= 30 }, "\(narrow.stdout)")
            #expect(lines.filter { $0.hasPrefix("id:") }.count == 2, "\(narrow.stdout)")
            #expect(lines.contains("id:           53719862871") && lines.contains("photographer: Bo Chen"), "\(narrow.stdout)")
            #expect(lines.contains(""), "blocks are separated by a blank line: \(narrow.stdout)")
            let table = try await photosync("list", environment: ["COLUMNS": "60"])
            #expect(table.stdout.hasPrefix("ID "), "60 columns still hold the table: \(table)")
            let names = try await photosync("photographers", environment: ["COLUMNS": "12"])
            #expect(names.stdout.split(separator: "\n").allSatisfy { Self.width($0) <= 12 }, "\(names.stdout)")
        }
    }

    @Test func statusShowsTheGapAndFitsSixtyColumns() async throws {
        try await withSandbox { photosync, server in
            server.serveFeed(Feed.pages(Self.items, perPage: 2))
            #expect(try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456").status == 0)
            server.serveFeed(Feed.pages([FeedItem("900", by: "Cy Diaz", title: "Fog"), FeedItem("901", by: "Cy Diaz", title: "Mist")], perPage: 2))
            let gap = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k123456")
            #expect(gap.stderr.contains("gap"), "\(gap)")

            let wide = try await photosync("status", environment: ["COLUMNS": "200"])
            let rows = wide.stdout.split(separator: "\n").filter { $0.contains("succeeded") }
            #expect(rows.count == 2 && rows[0].contains("succeeded (gap)") && !rows[1].contains("gap"), "\(wide.stdout)")

            let narrow = try await photosync("status", environment: ["COLUMNS": "60"])
            #expect(narrow.status == 0, "\(narrow)")
            #expect(narrow.stdout.split(separator: "\n").allSatisfy { Self.width($0) <= 60 }, "\(narrow.stdout)")
            #expect(narrow.stdout.contains("succeeded (gap)") && narrow.stdout.contains("catalog.sqlite"), "\(narrow.stdout)")
            #expect(narrow.stdout.contains("STARTED") && !narrow.stdout.contains("RECEIVED"), "a table without the details: \(narrow.stdout)")
            let narrower = try await photosync("status", environment: ["COLUMNS": "40"])
            #expect(narrower.stdout.split(separator: "\n").allSatisfy { Self.width($0) <= 40 }, "\(narrower.stdout)")
            #expect(narrower.stdout.contains("outcome:  succeeded (gap)"), "one block per run: \(narrower.stdout)")
        }
    }
}
