import Foundation
import PhotoFeed
@testable import PhotoSyncKit
import PhotoSyncTestSupport
import Testing

/// `DownloadRun` hands verified files to the calling thread, which keeps them (`FileKeeper`) in
/// batches; at most `backlog` wait, and the transfers wait for room beyond that.
@Suite("download run: keeping files in batches", .onTestThreads)
struct DownloadRunTests {
    static func jpeg(_ seed: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: seed, count: 4_000 + Int(seed)) }

    /// Twelve images through a backlog of one: the driver must wait for each file to be kept
    /// before it starts another, and every file still ends under its final name, in the catalog's
    /// batches exactly once.
    @Test(.timeLimit(.minutes(1))) func aBacklogOfOneStillKeepsEveryFile() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/download-run-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await TestHTTPServer.withRunning { server in
            let jobs = (1...12).map { index in
                server.route("/img/\(index).jpg", TestResponse(body: Self.jpeg(UInt8(index))))
                return DownloadJob(photoID: "\(index)", sizeLabel: "l", url: server.url("/img/\(index).jpg"))
            }
            let recorded = try await runOnDedicatedThread { () -> Result<[(DownloadJob, DownloadOutcome)], any Error> in
                Result {
                    let download = ImageDownload(folder: folder, budget: ByteBudget(limit: nil), isCancelled: { false })
                    var run = DownloadRun(jobs: jobs, parallel: 4, download: download, client: CurlHTTPClient())
                    run.backlog = 1
                    var recorded: [(DownloadJob, DownloadOutcome)] = []
                    try run.run { batch in recorded += batch }
                    return recorded
                }
            }.get()
            #expect(recorded.map(\.0.photoID).sorted() == jobs.map(\.photoID).sorted())
            for (job, outcome) in recorded {
                guard case .downloaded(let file) = outcome else {
                    Issue.record("photo \(job.photoID): \(outcome)")
                    continue
                }
                #expect(FileManager.default.contents(atPath: folder + "/" + file.path).map(Array.init) == Self.jpeg(UInt8(job.photoID)!))
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(names.filter { $0.hasPrefix(".") }.isEmpty, "no temporary file left: \(names)")
        }
    }
}
