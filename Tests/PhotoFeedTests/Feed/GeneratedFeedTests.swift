import Foundation
import PhotoSyncTestSupport
import Testing
@testable import PhotoFeed

/// `Fixtures/generate_feed.py` (which the fixture server and the benchmark use),
/// run as a user would and read back through `FeedDecoder`.
@Suite(.onTestThreads) struct GeneratedFeedTests {
    /// stdout of `python3 Fixtures/generate_feed.py <arguments>`, waited for on its own thread
    /// (blocking the cooperative pool would starve the in-process HTTP servers of other suites).
    private func generate(_ arguments: String...) async throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["python3", packageRoot + "/Fixtures/generate_feed.py"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.runOneAtATime()
        let (data, status) = await runOnDedicatedThread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (data, process.terminationStatus)
        }
        #expect(status == 0)
        return [UInt8](data)
    }

    @Test func sameArgumentsGiveTheSameBytes() async throws {
        let first = try await generate("--photos", "1234", "--per-page", "500", "--seed", "7", "--page", "2")
        #expect(first.count > 10_000)
        #expect(try await generate("--photos", "1234", "--per-page", "500", "--seed", "7", "--page", "2") == first)
        #expect(try await generate("--photos", "1234", "--per-page", "500", "--seed", "8", "--page", "2") != first)
    }

    @Test func lastPageIsPartialAndPagesPastTheEndAreEmpty() async throws {
        let last = try FeedDecoder.decode(try await generate("--photos", "1234", "--per-page", "500", "--seed", "7", "--page", "3"))
        #expect((last.page, last.pages, last.perPage, last.total) == (3, 3, 500, 1234))
        #expect(last.photos.count == 234)
        #expect(last.skipped.isEmpty)
        let beyond = try FeedDecoder.decode(try await generate("--photos", "1234", "--per-page", "500", "--seed", "7", "--page", "4"))
        #expect(beyond.photos.isEmpty)
    }

    @Test func aPhotoIsTheSameWhateverThePageSize() async throws {
        let large = try FeedDecoder.decode(try await generate("--photos", "100", "--per-page", "10", "--seed", "3", "--page", "1"))
        let small = try FeedDecoder.decode(try await generate("--photos", "100", "--per-page", "5", "--seed", "3", "--page", "2"))
        #expect(Array(large.photos.suffix(5)) == small.photos)
    }

    @Test func feedHasRealisticShape() async throws {
        let page = try FeedDecoder.decode(try await generate("--photos", "2000", "--per-page", "2000", "--seed", "1"))
        #expect(page.photos.count == 2000)
        #expect(Set(page.photos.map(\.id)).count == 2000)
        let owners = Set(page.photos.map(\.ownerID)).count
        #expect((300...450).contains(owners))
        #expect(page.photos.filter { $0.ownerName == "Ana Lima" }.count > 20)
        let untitled = page.photos.filter { $0.title == "Unknown" || $0.subtitle.isEmpty }.count
        #expect(untitled > 400)
        #expect(page.photos.allSatisfy { $0.uploaded != nil && $0.imageURL.hasPrefix("https://live.staticflickr.com/") })
    }
}
