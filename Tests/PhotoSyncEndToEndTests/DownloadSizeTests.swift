import Foundation
import PhotoSyncTestSupport
import Testing

/// `--size LIST` / `sizes`: the first size of the list a photo has a URL for is downloaded, from
/// the sizes the feed gave (`url_c`, `url_o`, ...) as the catalog keeps them.
@Suite("download: sizes beyond l", .onTestThreads)
struct DownloadSizeTests {
    /// 71 was sent nothing but `url_c` (its `l` is the one the feed rebuilds from `server` and
    /// `secret`, on a host the tests never reach), 72 `url_l` and `url_o`, 73 only `url_l`.
    static func items(_ server: TestHTTPServer) -> [FeedItem] {
        var onlyC = FeedItem("71", by: "Ana Lima", title: "only c")
        onlyC.imageURL = nil
        onlyC.extras = ["url_c": server.url("/img/71_c.jpg")]
        var both = FeedItem("72", by: "Ana Lima", title: "l and o")
        both.imageURL = server.url("/img/72_l.jpg")
        both.extras = ["url_o": server.url("/img/72_o.jpg")]
        var large = FeedItem("73", by: "Ana Lima", title: "only l")
        large.imageURL = server.url("/img/73_l.jpg")
        return [onlyC, both, large]
    }

    static func serve(_ server: TestHTTPServer) {
        for (path, seed) in [("71_c", 1), ("72_l", 2), ("72_o", 3), ("73_l", 4)] {
            server.route("/img/\(path).jpg", Images.response(Images.jpeg(3_000 + seed, seed: UInt64(70 + seed))))
        }
    }

    @Test(arguments: CatalogKind.allCases) func thePreferenceOrderIsHonouredAndAPhotoWithOnlyCGetsC(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            Self.serve(fixture.server)
            try await fixture.fetch(Self.items(fixture.server))

            // o, then c, then l: 72 gets o (not its l), 71 c (not the l the feed rebuilt, whose
            // host no test reaches: asking it would fail the run), 73 its only size, l.
            let first = try await fixture.download("--size", "o,c,l")
            #expect(first.status == 0, "\(first)")
            #expect(try jsonObject(first)["downloaded"] as? Int == 3, "\(first)")
            #expect(fixture.names() == ["71_c.jpg", "72_o.jpg", "73_l.jpg"])
            #expect(fixture.contents("71_c.jpg") == Images.jpeg(3_001, seed: 71))
            #expect(fixture.contents("72_o.jpg") == Images.jpeg(3_003, seed: 73))
            #expect(fixture.contents("73_l.jpg") == Images.jpeg(3_004, seed: 74))
            #expect(fixture.server.requests(to: "/img/72_l.jpg").isEmpty, "l is not fetched when o comes first")

            // The default, l: every file is present, whatever size it is; nothing is requested.
            let requests = fixture.imageRequests
            let second = try await fixture.download()
            #expect(second.status == 0, "\(second)")
            #expect(try jsonObject(second)["downloaded"] as? Int == 0 && jsonObject(second)["present"] as? Int == 3, "\(second)")
            #expect(fixture.imageRequests == requests)

            let show = try jsonObject(try await fixture.run("show", "71", "--format", "json"))
            let file = try #require(show["file"] as? [String: Any], "\(show)")
            #expect(file["size_label"] as? String == "c" && file["path"] as? String == fixture.files + "/71_c.jpg", "\(file)")
            let other = try jsonObject(try await fixture.run("show", "72", "--format", "json"))
            #expect((other["file"] as? [String: Any])?["size_label"] as? String == "o", "\(other)")
        }
    }

    @Test func theConfigSizesListAppliesAndTheFlagOverridesIt() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            Self.serve(fixture.server)
            try await fixture.fetch(Self.items(fixture.server))
            let config = fixture.photosync.directory + "/sizes.yaml"
            try "sizes: c,o\n".write(toFile: config, atomically: true, encoding: .utf8)

            let result = try await fixture.download("--config", config, "--photographer", "Ana Lima")
            #expect(result.status == 0, "\(result)")
            // 71: c; 72: no c, so o; 73: neither c nor o, left out and said so.
            #expect(fixture.names() == ["71_c.jpg", "72_o.jpg"], "\(result)")
            #expect(result.stderr.contains("1 photo(s) have none of the sizes c,o: not downloaded"), "\(result)")

            let flag = try await fixture.download("--config", config, "--size", "l")
            #expect(flag.status == 0, "\(flag)")
            #expect(fixture.names() == ["71_c.jpg", "72_o.jpg", "73_l.jpg"], "\(flag)")
        }
    }

    @Test func anUnknownSizeInTheEnvironmentIsOneLineAndNothingIsRequested() async throws {
        try await withDownloadFixture(.sqlite) { fixture in
            Self.serve(fixture.server)
            try await fixture.fetch(Self.items(fixture.server))
            let result = try await fixture.photosync.run(["download", "--files", fixture.files, "--db", fixture.photosync.db],
                                                         environment: ["PHOTOSYNC_SIZES": "l,xxl"])
            #expect(result.status == 78, "a configuration error: \(result)")
            #expect(result.stderrLines.count == 1 && result.stderr.contains("unknown size \"xxl\""), "\(result)")
            #expect(fixture.imageRequests == 0)
        }
    }
}
