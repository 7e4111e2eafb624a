import Foundation
import PhotoSyncTestSupport
import Testing

/// The built `photosync` binary run as a child process in its own temporary directory.
///
/// Every run gets a clean environment: PATH, HOME and the XDG directories pointing into the
/// sandbox, plus whatever the test adds. `db` is the sandbox's catalog path.
struct PhotoSync: Sendable {
    struct Result: Sendable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }

        /// Non-empty stderr lines.
        var stderrLines: [Substring] { stderr.split(whereSeparator: \.isNewline) }

        /// stdout parsed as JSON.
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        }
    }

    let directory: String
    var db: String { directory + "/catalog.sqlite" }

    init() throws {
        let base = FileManager.default.temporaryDirectory.path + "/photosync-e2e-" + UUID().uuidString
        for sub in ["home", "data", "config"] {
            try FileManager.default.createDirectory(atPath: base + "/" + sub, withIntermediateDirectories: true)
        }
        directory = base
    }

    static let binary: String = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.appendingPathComponent(".build/debug/photosync").path
            }
            url.deleteLastPathComponent()
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    func environment(_ extra: [String: String]) -> [String: String] {
        var env = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory + "/home",
            "XDG_DATA_HOME": directory + "/data",
            "XDG_CONFIG_HOME": directory + "/config",
        ]
        env.merge(extra) { $1 }
        return env
    }

    /// A started, not yet finished run; `wait()` blocks, so call it off the cooperative pool.
    final class Running: @unchecked Sendable {
        let process: Process
        let outPath: String
        let errPath: String

        init(process: Process, outPath: String, errPath: String) {
            self.process = process
            self.outPath = outPath
            self.errPath = errPath
        }

        func wait() -> Result {
            process.waitUntilExit()
            let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            return Result(status: process.terminationStatus, stdout: out, stderr: err)
        }
    }

    /// Starts `photosync args` with stdout and stderr captured to files.
    func start(_ args: [String], environment extra: [String: String] = [:]) throws -> Running {
        let id = UUID().uuidString
        let outPath = directory + "/\(id).out"
        let errPath = directory + "/\(id).err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = args
        process.environment = environment(extra)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        return Running(process: process, outPath: outPath, errPath: errPath)
    }

    /// Runs `photosync args` to completion on a dedicated thread, so the in-process server keeps serving.
    func run(_ args: [String], environment extra: [String: String] = [:]) async throws -> Result {
        let running = try start(args, environment: extra)
        return await runOnDedicatedThread { running.wait() }
    }

    /// `run` with `--db <sandbox catalog>` appended.
    func callAsFunction(_ args: String..., environment extra: [String: String] = [:]) async throws -> Result {
        try await run(args + ["--db", db], environment: extra)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

// MARK: - Feed fixtures

/// One photo item as the feed sends it.
struct FeedItem: Sendable {
    var id: String
    var owner: String
    var title: String
    var description: String = ""
    var dateUpload: String = "1700000000"
    var ownerID: String = "1@N01"
    var imageURL: String? = nil

    init(_ id: String, by owner: String, title: String, description: String = "", uploaded: String = "1700000000") {
        self.id = id
        self.owner = owner
        self.title = title
        self.description = description
        self.dateUpload = uploaded
        self.ownerID = "\(abs(owner.hashValue % 1000))@N01"
        self.imageURL = "https://live.example.test/\(id)_l.jpg"
    }

    var json: [String: Any] {
        var object: [String: Any] = [
            "id": id, "owner": ownerID, "ownername": owner, "title": title,
            "description": ["_content": description], "dateupload": dateUpload,
            "server": "65535", "secret": "abc", "ispublic": 1,
        ]
        if let imageURL { object["url_l"] = imageURL }
        return object
    }
}

enum Feed {
    /// One page of `flickr.photos.getRecent` JSON.
    static func page(_ number: Int, of pages: Int, perPage: Int, total: Int, _ items: [FeedItem]) -> String {
        let object: [String: Any] = [
            "photos": [
                "page": number, "pages": pages, "perpage": perPage, "total": total,
                "photo": items.map(\.json),
            ] as [String: Any],
            "stat": "ok",
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Pages of `perPage` items each, keyed by page number.
    static func pages(_ items: [FeedItem], perPage: Int) -> [Int: String] {
        let chunks = stride(from: 0, to: items.count, by: perPage).map { Array(items[$0..<min($0 + perPage, items.count)]) }
        var result: [Int: String] = [:]
        for (index, chunk) in chunks.enumerated() {
            result[index + 1] = page(index + 1, of: chunks.count, perPage: perPage, total: items.count, chunk)
        }
        return result
    }

    static let path = "/rest"
}

extension TestHTTPServer {
    /// Serves `pages` on `Feed.path` by the `page` query parameter (404 for unknown pages).
    func serveFeed(_ pages: [Int: String]) {
        route(Feed.path) { request in
            guard let number = request.query["page"].flatMap(Int.init), let body = pages[number] else { return .status(404) }
            return .text(body, headers: ["Content-Type": "application/json"])
        }
    }

    var feedURL: String { url(Feed.path) }

    /// Page numbers requested so far on `Feed.path`, in order.
    var requestedPages: [Int] {
        requests(to: Feed.path).compactMap { $0.query["page"].flatMap(Int.init) }
    }
}

/// Runs `body` with a fresh sandbox and a running server, cleaning both up.
func withSandbox<T>(_ body: (PhotoSync, TestHTTPServer) async throws -> T) async throws -> T {
    let sandbox = try PhotoSync()
    defer { sandbox.remove() }
    return try await TestHTTPServer.withRunning { server in try await body(sandbox, server) }
}

/// The JSON array of objects in `result`'s stdout.
func jsonArray(_ result: PhotoSync.Result) throws -> [[String: Any]] {
    try #require(try result.json() as? [[String: Any]], "stdout is not a JSON array of objects: \(result)")
}

func jsonObject(_ result: PhotoSync.Result) throws -> [String: Any] {
    try #require(try result.json() as? [String: Any], "stdout is not a JSON object: \(result)")
}
