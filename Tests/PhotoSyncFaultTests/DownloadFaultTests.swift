import Foundation
import Glibc
import PhotoSyncTestSupport
import Testing

/// Downloads under the faults that must never leave a half file under a final name, nor a catalog
/// row for a file that is not there: kill -9 mid-transfer, and a full disk.
@Suite("download faults", .onTestThreads)
struct DownloadFaultTests {
    static func jpeg(_ size: Int, _ byte: UInt8) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: byte, count: size - 4) }

    /// A one-page feed whose photos' `url_l` are `urls` (ids 1, 2, ...).
    static func page(_ urls: [String]) -> String {
        let items = urls.enumerated().map { index, url in
            #"{"id":"\#(index + 1)","owner":"1@N01","ownername":"Ana","title":"t","dateupload":"1700000000","url_l":"\#(url)"}"#
        }
        return #"{"photos":{"page":1,"pages":1,"perpage":100,"total":\#(urls.count),"photo":[\#(items.joined(separator: ","))]},"stat":"ok"}"#
    }

    static func fetch(_ sandbox: Sandbox, _ server: TestHTTPServer, _ urls: [String]) async throws {
        server.route("/rest", .text(page(urls), headers: ["Content-Type": "application/json"]))
        let fetch = try await sandbox("fetch", "--url", server.url("/rest"), "--api-key", "k", "--quiet")
        try #require(fetch.status == 0, "\(fetch)")
    }

    static func names(_ folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

    @Test func killedMidTransferLeavesNoFinalFileAndNoRowThenTheNextRunCompletes() async throws {
        try await withSandbox(environment: BinarySandbox.inProcessServerEnvironment) { sandbox in
            try await TestHTTPServer.withRunning { server in
                let head = Array("HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 10000000\r\n\r\n".utf8)
                let slow = try RawSocketServer(.trickle(head: head, chunk: Self.jpeg(1_024, 9), interval: 0.02))
                defer { slow.stop() }
                try await Self.fetch(sandbox, server, [slow.baseURL + "/1.jpg"])
                let files = sandbox.directory + "/files"
                let running = try sandbox.start(["download", "--files", files, "--db", sandbox.db])
                // Some bytes are on disk, under whatever name the transfer writes to.
                let started = await eventually(within: 60) { Self.names(files).contains { (FileSize.size(files + "/" + $0) ?? 0) > 4_096 } }
                running.signal(SIGKILL)
                let killed = await running.finish()
                try #require(started, "the transfer never began: \(killed)")
                #expect(killed.signalled, "\(killed)")
                #expect(Self.names(files) == [".1_l.part"], "only the temporary file: \(Self.names(files))")
                let status = try await sandbox("status", "--format", "json").object()
                #expect(status["files"] as? Int == 0 && status["files_pending"] as? Int == 1, "\(status)")

                let image = Self.jpeg(50_000, 3)
                server.route("/img/1.jpg", TestResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: image))
                try await Self.fetch(sandbox, server, [server.url("/img/1.jpg")])
                let again = try await sandbox.run(["download", "--files", files, "--db", sandbox.db])
                #expect(again.status == 0, "\(again)")
                #expect(Self.names(files) == ["1_l.jpg"])
                #expect(FileManager.default.contents(atPath: files + "/1_l.jpg").map(Array.init) == image)
            }
        }
    }

    /// `--max-time` while one image is done and another still trickles in (it would take hours):
    /// 75 and "run again to continue", the finished file kept and recorded, the cut one only as its
    /// temporary part (kept for a `Range` resume, since the server offered one), never a final name.
    @Test(.timeLimit(.minutes(3)))
    func maxTimeStopsTheRunWith75KeepingWhatIsDone() async throws {
        try await withSandbox(environment: BinarySandbox.inProcessServerEnvironment) { sandbox in
            try await TestHTTPServer.withRunning { server in
                let head = Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: 1000000000\r\nAccept-Ranges: bytes\r\nETag: \"v1\"\r\n\r\n".utf8)
                let chunk = Self.jpeg(1_024, 7)
                let slow = try RawSocketServer(.trickle(head: head, chunk: chunk, interval: 0.05))
                defer { slow.stop() }
                let image = Self.jpeg(20_000, 1)
                // Served from a thread of its own: the 4 s must not depend on this process's
                // cooperative threads, which the rest of the suite keeps busy.
                let fast = try RawSocketServer(.sendToEveryRequest(Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: \(image.count)\r\nConnection: close\r\n\r\n".utf8) + image))
                defer { fast.stop() }
                try await Self.fetch(sandbox, server, [fast.baseURL + "/1.jpg", slow.baseURL + "/2.jpg"])
                let files = sandbox.directory + "/files"
                let result = try await sandbox.run(["download", "--files", files, "--max-time", "4", "--format", "json", "--db", sandbox.db])

                #expect(result.status == 75, "\(result)")
                #expect(result.stderrLines.last?.contains("run again to continue") == true, "\(result)")
                let summary = try result.object()
                #expect(summary["downloaded"] as? Int == 1 && summary["pending"] as? Int == 1 && summary["failed"] as? Int == 0, "\(summary)")
                #expect(Self.names(files) == [".2_l.part", ".2_l.part.resume", "1_l.jpg"], "\(Self.names(files))")
                #expect(FileManager.default.contents(atPath: files + "/1_l.jpg").map(Array.init) == image)
                let part = FileManager.default.contents(atPath: files + "/.2_l.part").map(Array.init) ?? []
                let sent = Array((0...(part.count / chunk.count)).map { _ in chunk }.joined())
                #expect(!part.isEmpty && part == Array(sent.prefix(part.count)), "the part holds the bytes as sent: \(part.count) bytes")
                let status = try await sandbox("status", "--format", "json").object()
                #expect(status["files"] as? Int == 1 && status["files_pending"] as? Int == 1, "\(status)")
            }
        }
    }

    @Test func aFullDiskExits74KeepingWhatWasCompleted() async throws {
        try await withSandbox(environment: BinarySandbox.inProcessServerEnvironment) { sandbox in
            let files = sandbox.directory + "/files"
            try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
            let mount = try await sandbox.runLimited("", [], command: ["/bin/mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", files])
            try #require(mount.result.status == 0, "mounting a small tmpfs needs root (CI runs as root): \(mount.result)")
            defer { _ = try? runToolSync("/bin/umount", [files]) }
            try await TestHTTPServer.withRunning { server in
                for id in 1...3 {
                    server.route("/img/\(id).jpg", TestResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: Self.jpeg(400_000, UInt8(id))))
                }
                try await Self.fetch(sandbox, server, (1...3).map { server.url("/img/\($0).jpg") })
                let result = try await sandbox.run(["download", "--files", files, "--jobs", "1", "--db", sandbox.db])
                #expect(result.status == 74, "\(result)")
                #expect(result.stderrLines.filter { $0.contains("disk full") }.count == 1, "\(result)")
                #expect(Self.names(files) == ["1_l.jpg", "2_l.jpg"], "no partial file under any name")
                let verify = try await sandbox.run(["verify", "--files", files, "--format", "json", "--db", sandbox.db])
                #expect(verify.status == 0, "what was recorded is there and right: \(verify)")
                #expect(try verify.object()["checked"] as? Int == 2)
            }
        }
    }
}

enum FileSize {
    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
