import Foundation
import PhotoFeed
import PhotoSyncTestSupport
import Testing
@testable import PhotoSyncKit

/// 2024-05-01T12:00:00Z.
private let mayFirstNoon = Date(timeIntervalSince1970: 1_714_564_800)

private let sunset = PhotoListing(
    id: "101", title: "Sunset", subtitle: "Lisbon", photographer: "Ana Lima",
    imageURL: "https://live.staticflickr.com/1/101_a.jpg", uploaded: mayFirstNoon, source: "search tags=sea")
private let undated = PhotoListing(
    id: "102", title: "Hello, \"world\"", subtitle: "line one\nline two", photographer: "Ana Lima",
    imageURL: "https://live.staticflickr.com/1/102_b.jpg", uploaded: nil)

@Suite("list output", .onTestThreads)
struct PhotoListOutputTests {
    @Test("JSON has the documented keys, ISO 8601 UTC dates and explicit nulls")
    func json() throws {
        var described = sunset
        (described.metadata.license, described.metadata.taken, described.metadata.media) = ("4", "2024-04-30 18:05:00", "photo")
        (described.metadata.latitude, described.metadata.longitude) = (38.7, -9.14)
        (described.metadata.lastUpdate, described.metadata.views, described.ownerID) = (mayFirstNoon, 12, "1@N01")
        described.metadata.tags = ["lisboa", "sea"]
        described.licenseInfo = FeedLicense(id: "4", name: "Attribution License", url: "https://creativecommons.org/licenses/by/2.0/")
        var unnamed = undated
        unnamed.metadata.license = "11"
        let expected =
            #"[{"checked":null,"gone":null,"gone_reason":null,"id":"101","image_url":"https://live.staticflickr.com/1/101_a.jpg","last_update":"2024-05-01T12:00:00Z","latitude":38.7,"#
            + #""license":{"id":"4","name":"Attribution License","url":"https://creativecommons.org/licenses/by/2.0/"},"longitude":-9.14,"#
            + #""media":"photo","owner_id":"1@N01","photographer":"Ana Lima","source":"search tags=sea","subtitle":"Lisbon","#
            + #""tags":["lisboa","sea"],"taken":"2024-04-30 18:05:00","title":"Sunset","uploaded":"2024-05-01T12:00:00Z","views":12},"#
            + #"{"checked":null,"gone":null,"gone_reason":null,"id":"102","image_url":"https://live.staticflickr.com/1/102_b.jpg","last_update":null,"latitude":null,"#
            + #""license":{"id":"11","name":null,"url":null},"longitude":null,"media":null,"owner_id":"","photographer":"Ana Lima","#
            + #""source":"","subtitle":"line one\nline two","tags":[],"taken":null,"title":"Hello, \"world\"","uploaded":null,"views":null},"#
            + #"{"checked":null,"gone":null,"gone_reason":null,"id":"102","image_url":"https://live.staticflickr.com/1/102_b.jpg","last_update":null,"latitude":null,"license":null,"#
            + #""longitude":null,"media":null,"owner_id":"","photographer":"Ana Lima","#
            + #""source":"","subtitle":"line one\nline two","tags":[],"taken":null,"title":"Hello, \"world\"","uploaded":null,"views":null}]"#
            + "\n"
        #expect(try PhotoListOutput.render([described, unnamed, undated], as: .json, photographer: nil) == expected)
    }

    @Test("CSV quotes fields with commas, quotes and newlines, doubling quotes")
    func csv() throws {
        let expected =
            "id,title,subtitle,photographer,image_url,uploaded,source\r\n"
            + "101,Sunset,Lisbon,Ana Lima,https://live.staticflickr.com/1/101_a.jpg,2024-05-01T12:00:00Z,search tags=sea\r\n"
            + "102,\"Hello, \"\"world\"\"\",\"line one\nline two\",Ana Lima,https://live.staticflickr.com/1/102_b.jpg,,\r\n"
        #expect(try PhotoListOutput.render([sunset, undated], as: .csv, photographer: nil) == expected)
    }

    @Test("an empty result: [] in JSON, the header in CSV, a sentence in a table")
    func empty() throws {
        #expect(try PhotoListOutput.render([], as: .json, photographer: nil) == "[]\n")
        #expect(try PhotoListOutput.render([], as: .csv, photographer: nil) == "id,title,subtitle,photographer,image_url,uploaded,source\r\n")
        #expect(try PhotoListOutput.render([], as: .table, photographer: nil) == "No photos.\n")
        #expect(try PhotoListOutput.render([], as: .table, photographer: "Ana Lima") == "No photos by Ana Lima.\n")
    }

    @Test("the table shows id, title, photographer and upload time in aligned columns")
    func table() throws {
        let expected =
            "ID   TITLE           PHOTOGRAPHER  UPLOADED\n"
            + "101  Sunset          Ana Lima      2024-05-01T12:00:00Z\n"
            + "102  Hello, \"world\"  Ana Lima      -\n"
        #expect(try PhotoListOutput.render([sunset, undated], as: .table, photographer: nil) == expected)
    }
}

@Suite("CSV writer", .onTestThreads)
struct CSVWriterTests {
    @Test("commas, quotes, tabs and line breaks make a field quoted")
    func quoting() {
        let output = CSVWriter.render(header: ["a", "b", "c", "d"], rows: [["Zoë", "tab\there", "line\u{2028}break", "cr\rlf"]])
        #expect(output == "a,b,c,d\r\nZoë,\"tab\there\",\"line\u{2028}break\",\"cr\rlf\"\r\n")
    }

    /// Issue 14: only tab, CR and LF stay raw (quoted); every other control is escaped as in the table.
    @Test func controlsOtherThanTabCRLFAreEscaped() {
        let output = CSVWriter.render(header: ["t"], rows: [["\u{1B}[31mred\u{7F}\u{9B}\u{202E}x\u{2066}\u{0}"], ["a\nb"]])
        #expect(output == "t\r\n\\u{1B}[31mred\\u{7F}\\u{9B}\\u{202E}x\\u{2066}\\u{0}\r\n\"a\nb\"\r\n")
    }

    /// A quote or comma followed by a combining mark is one `Character` equal to neither, but a CSV
    /// reader still sees the quote or comma: quoting works on bytes.
    @Test func aQuoteOrCommaFollowedByACombiningMarkIsStillQuoted() {
        let output = CSVWriter.render(header: ["t"], rows: [["a\"\u{301}b"], ["x,\u{301}y"]])
        let expected = "t\r\n\"a\"\"\u{301}b\"\r\n\"x,\u{301}y\"\r\n"
        #expect(Array(output.utf8) == Array(expected.utf8))
    }
}

@Suite("Table renderer", .onTestThreads)
struct TableRendererTests {
    @Test("long cells are cut to the column's width with an ellipsis")
    func truncation() {
        let table = TableRenderer(columns: [.init(header: "ID"), .init(header: "TITLE", maxWidth: 8)])
        #expect(table.render([["1", "Golden hour at the pier"], ["22", "Pier"]]) == "ID  TITLE\n1   Golden…\n22  Pier\n")
        let exact = TableRenderer(columns: [.init(header: "T", maxWidth: 4)])
        #expect(exact.render([["abcd"], ["abcde"], ["a   bcd"]]) == "T\nabcd\nabc…\na…\n")
    }

    @Test("wide characters count two columns when aligning and cutting")
    func wideCharacters() {
        let table = TableRenderer(columns: [.init(header: "NAME"), .init(header: "PHOTOS", alignRight: true)])
        #expect(
            table.render([["山田太郎", "3"], ["Ana", "12"]])
                == "NAME      PHOTOS\n山田太郎       3\nAna           12\n")
        let narrow = TableRenderer(columns: [.init(header: "T", maxWidth: 5)])
        #expect(narrow.render([["山田太郎"]]) == "T\n山田…\n")
    }

    @Test("a repeated name is printed as given on every row, byte for byte (NFD stays NFD)")
    func repeatedNames() {
        let table = TableRenderer(columns: [.init(header: "NAME"), .init(header: "N")])
        let output = table.render([["Zoë", "1"], ["Zoë", "2"], ["Åsa", "3"], ["Jose\u{301}", "4"], ["José", "5"], ["Jose\u{301}", "6"]])
        let expected = "NAME  N\nZoë   1\nZoë   2\nÅsa   3\nJose\u{301}  4\nJosé  5\nJose\u{301}  6\n"
        #expect(Array(output.utf8) == Array(expected.utf8))
    }

    @Test("width: one column per character, two for CJK, kana, hangul and emoji presentation; marks add none")
    func widths() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let narrow: [Range<UInt32>] = [0x20..<0x300, 0x370..<0x483, 0x2010..<0x2028, 0x2030..<0x205F]
            let wide: [Range<UInt32>] = [0x3041..<0x3097, 0x30A0..<0x3100, 0x3400..<0x4DC0, 0x4E00..<0xA000, 0xAC00..<0xD7A4, 0xFF01..<0xFF61]
            let pools = narrow + wide + [0xFE0F..<0xFE10]
            let scalars = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
                Unicode.Scalar(UInt32.random(in: pools.randomElement(using: &generator)!, using: &generator))!
            }
            let text = String(String.UnicodeScalarView(scalars))
            // Each character: two columns when it starts with a wide scalar or holds U+FE0F, else one.
            let expected = text.reduce(0) { total, character in
                let first = character.unicodeScalars.first!.value
                let isWide = wide.contains { $0.contains(first) } || character.unicodeScalars.contains("\u{FE0F}")
                return total + (isWide ? 2 : 1)
            }
            #expect(TableRenderer.width(of: text) == expected, "\(scalars.map(\.value))")
        }
        #expect(TableRenderer.width(of: "Jose\u{301}") == 4)
        #expect(TableRenderer.width(of: "Zoë 日本") == 8)
        #expect(TableRenderer.width(of: "Ёж\u{488} — «ok»") == 9)
        #expect(TableRenderer.width(of: "❤\u{FE0F} 東京 ｱ") == 9)
    }

    @Test("controls inside a non-ASCII title are escaped, so the row stays one line")
    func unicodeLineBreaks() {
        let table = TableRenderer(columns: [.init(header: "T")])
        #expect(table.render([["Zoë a\u{85}b\r\nd"]]) == "T\nZoë a\\u{85}b\\u{D}\\u{A}d\n")
        #expect(table.render([["«x» – y\u{2026}\u{A0}z"]]) == "T\n«x» – y\u{2026}\u{A0}z\n")
    }

    @Test("the same text in two columns is cut to each column's own width")
    func sameTextTwoWidths() {
        let table = TableRenderer(columns: [.init(header: "A", maxWidth: 4), .init(header: "B", maxWidth: 6)])
        #expect(table.render([["Zoë Åberg", "Zoë Åberg"]]) == "A     B\nZoë…  Zoë Å…\n")
    }

    @Test("newlines and tabs inside a cell are escaped and do not break the row")
    func controlCharacters() {
        let table = TableRenderer(columns: [.init(header: "A"), .init(header: "B")])
        #expect(table.render([["x\ny", "1\t2"]]) == "A        B\nx\\u{A}y  1\\u{9}2\n")
    }

    /// Issue 14, defect 1: a title `\e[31mred\e[0m title` turned the terminal red and shifted the row.
    @Test func terminalEscapesAndBidiControlsAreShownNotObeyed() {
        let table = TableRenderer(columns: [.init(header: "T"), .init(header: "N")])
        let output = table.render([["\u{1B}[31mred\u{1B}[0m title", "\u{202E}evil\u{2069}\u{7F}\u{9B}"]])
        let first = #"\u{1B}[31mred\u{1B}[0m title"#
        #expect(output == "T" + String(repeating: " ", count: first.count + 1) + "N\n" + first + #"  \u{202E}evil\u{2069}\u{7F}\u{9B}"# + "\n")
        #expect(!output.unicodeScalars.contains { TerminalText.isControl($0) && $0 != "\n" })
    }
}

@Suite("Other outputs", .onTestThreads)
struct OtherOutputTests {
    @Test("photographers: name and photo count in every format")
    func photographers() throws {
        let rows = [PhotographerListing(name: "Ana Lima", photos: 3), PhotographerListing(name: "Bo, Jr.", photos: 12)]
        #expect(try PhotographerListOutput.render(rows, as: .json) == #"[{"name":"Ana Lima","photos":3},{"name":"Bo, Jr.","photos":12}]"# + "\n")
        #expect(try PhotographerListOutput.render(rows, as: .csv) == "name,photos\r\nAna Lima,3\r\n\"Bo, Jr.\",12\r\n")
        #expect(try PhotographerListOutput.render(rows, as: .table) == "NAME      PHOTOS\nAna Lima       3\nBo, Jr.       12\n")
        #expect(try PhotographerListOutput.render([], as: .table) == "No photographers.\n")
        #expect(try PhotographerListOutput.render([], as: .json) == "[]\n")
    }

    @Test("the fetch summary in JSON uses the documented snake_case keys")
    func fetchSummaryJSON() throws {
        var summary = FetchSummary()
        (summary.pages, summary.received, summary.inserted, summary.updated) = (2, 10, 3, 2)
        (summary.unchanged, summary.skipped, summary.photographersInserted, summary.photographersRemoved) = (4, 1, 1, 0)
        summary.repeated = 5
        #expect(
            try FetchSummaryOutput.render(summary, as: .json, dryRun: false)
                == #"{"backfill_pages":0,"dates_unknown":0,"excluded":0,"gap":false,"inserted":3,"more_pages":0,"pages":2,"pages_skipped_known":0,"photographers_inserted":1,"photographers_removed":0,"photographers_renamed":0,"received":10,"repeated":5,"skipped":1,"unchanged":4,"updated":2,"windows_over_cap":0}"#
                + "\n")
    }

    @Test("the fetch summary in text has one line per count, and says when nothing was saved")
    func fetchSummaryText() throws {
        var summary = FetchSummary()
        summary.inserted = 7
        let text = try FetchSummaryOutput.render(summary, as: .text, dryRun: false)
        summary.repeated = 2
        #expect(text.split(separator: "\n").count == 10)
        #expect(text.contains("photos inserted:        7\n"))
        #expect(try FetchSummaryOutput.render(summary, as: .text, dryRun: false).contains("photos repeated:        2\n"))
        #expect(try FetchSummaryOutput.render(summary, as: .text, dryRun: true).hasPrefix("dry run: nothing was saved\n"))
    }

    @Test("status JSON flattens each run's counts next to its times, outcome and error")
    func statusJSON() throws {
        var summary = FetchSummary()
        summary.pages = 1
        let run = FetchRunRecord(started: mayFirstNoon, finished: nil, outcome: .failed, summary: summary, error: "network down", id: 41)
        let status = CatalogStatus(photos: 5, photographers: 2, runs: [run])
        let expected =
            #"{"api_calls_last_hour":0,"excluded_photographers":0,"excluded_photos":0,"file_bytes":0,"files":0,"files_pending":0,"files_unavailable":0,"photographers":2,"photos":5,"runs":[{"backfill_pages":0,"dates_unknown":0,"error":"network down","excluded":0,"finished":null,"gap":false,"id":41,"inserted":0,"more_pages":0,"outcome":"failed","pages":1,"#
            + #""pages_skipped_known":0,"#
            + #""photographers_inserted":0,"photographers_removed":0,"photographers_renamed":0,"received":0,"repeated":0,"skipped":0,"started":"2024-05-01T12:00:00Z","unchanged":0,"updated":0,"windows_over_cap":0}],"sources":[]}"#
            + "\n"
        #expect(try StatusOutput.render(status, as: .json, databasePath: "/c.sqlite") == expected)
    }

    @Test("status text without runs says so")
    func statusTextEmpty() throws {
        let status = CatalogStatus(photos: 0, photographers: 0, runs: [])
        #expect(
            try StatusOutput.render(status, as: .text, databasePath: "/c.sqlite")
                == "catalog:       /c.sqlite\nphotos:        0\nphotographers: 0\napi calls:     0 in the last hour\n\nNo fetches yet.\n")
    }

    @Test("delete reports photos, then photographers the rule removed")
    func deletion() {
        let report = DeletionReport(photoIDs: ["123", "124"], photographersRemoved: ["Ana Lima"])
        #expect(
            DeletionOutput.render(report, photographer: nil)
                == "deleted photo 123\ndeleted photo 124\nremoved photographer Ana Lima (no photos left)\n")
        #expect(DeletionOutput.render(report, photographer: "Ana Lima").hasSuffix("removed photographer Ana Lima\n"))
    }
}

@Suite("Timestamps", .onTestThreads)
struct TimestampTests {
    @Test("match Foundation's ISO 8601 formatter to the second, from the Gregorian reform to year 9999")
    func matchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        let fixed: [TimeInterval] = [
            0, -1, -0.5, 0.999, 86_399.9, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800, -12_219_292_800,
            -12_219_292_799.5, 253_402_300_799.5, 1_714_564_800,
        ]
        let random = (0..<20_000).map { _ in TimeInterval.random(in: -12_219_292_800..<253_402_300_800, using: &generator) }
        for seconds in fixed + random {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(timestamp(date) == date.formatted(.iso8601), "at \(seconds)")
        }
    }

    @Test("dates before the reform or after 9999 still print, through Foundation")
    func outsideTheFastRange() {
        for seconds in [-12_219_292_800.5, -62_135_596_801, 253_402_300_800, 1e12] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(timestamp(date) == date.formatted(.iso8601))
        }
    }
}
