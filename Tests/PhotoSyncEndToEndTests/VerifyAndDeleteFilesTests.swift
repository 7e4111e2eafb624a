import Foundation
import PhotoSyncTestSupport
import Testing

@Suite("verify, and deletes that remove files", .onTestThreads)
struct VerifyAndDeleteFilesTests {
    /// Three photos downloaded into the fixture's folder.
    static func downloaded(_ fixture: DownloadFixture, _ ids: [String] = ["71", "72", "73"]) async throws {
        for (index, id) in ids.enumerated() {
            fixture.server.route("/img/\(id).jpg", Images.response(Images.jpeg(3_000, seed: UInt64(70 + index))))
        }
        try await fixture.fetch(DownloadFixture.items(ids, server: fixture.server))
        let download = try await fixture.download()
        try #require(download.status == 0, "\(download)")
    }

    @Test(arguments: CatalogKind.allCases) func verifyListsMissingCorruptAndOrphansAndRepairFixesThem(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            try await Self.downloaded(fixture)
            let clean = try await fixture.run("verify", "--format", "json")
            #expect(clean.status == 0, "\(clean)")
            #expect(try jsonObject(clean) as NSDictionary == ["checked": 3, "ok": 3, "missing": [], "corrupt": [], "orphans": []])

            try FileManager.default.removeItem(atPath: fixture.files + "/71_l.jpg")
            var bytes = try #require(fixture.contents("72_l.jpg"))
            bytes[1_000] ^= 0xFF  // same size, other content: only the hash can tell
            try Data(bytes).write(to: URL(fileURLWithPath: fixture.files + "/72_l.jpg"))
            try Data("stray".utf8).write(to: URL(fileURLWithPath: fixture.files + "/stray.txt"))

            let broken = try await fixture.run("verify", "--format", "json")
            #expect(broken.status == 1, "\(broken)")
            let report = try jsonObject(broken)
            #expect(report["missing"] as? [String] == ["71"] && report["corrupt"] as? [String] == ["72"], "\(report)")
            #expect(report["orphans"] as? [String] == [fixture.files + "/stray.txt"], "\(report)")
            #expect(report["ok"] as? Int == 1)

            let repair = try await fixture.run("verify", "--repair")
            #expect(repair.status == 0, "\(repair)")
            #expect(repair.stderr.contains("removing \(fixture.files)/stray.txt"), "\(repair)")
            #expect(fixture.names() == ["71_l.jpg", "72_l.jpg", "73_l.jpg"])
            #expect(fixture.contents("72_l.jpg") == Images.jpeg(3_000, seed: 71))
            #expect(try await fixture.run("verify").status == 0)
        }
    }

    @Test(arguments: CatalogKind.allCases) func deleteRemovesTheFilesUnlessKeepFiles(_ kind: CatalogKind) async throws {
        try await withDownloadFixture(kind) { fixture in
            try await Self.downloaded(fixture)
            let delete = try await fixture.run("delete", "71")
            #expect(delete.status == 0, "\(delete)")
            #expect(fixture.names() == ["72_l.jpg", "73_l.jpg"])
            let keep = try await fixture.run("delete", "72", "--keep-files")
            #expect(keep.status == 0, "\(keep)")
            #expect(fixture.names() == ["72_l.jpg", "73_l.jpg"])
            // The kept file is no photo's now: verify calls it an orphan; the catalog forgot it.
            let verify = try jsonObject(try await fixture.run("verify", "--format", "json"))
            #expect(verify["checked"] as? Int == 1 && verify["orphans"] as? [String] == [fixture.files + "/72_l.jpg"], "\(verify)")
            // restore does not download.
            let requests = fixture.imageRequests
            #expect(try await fixture.run("restore", "71").status == 0)
            #expect(fixture.imageRequests == requests)
        }
    }
}
