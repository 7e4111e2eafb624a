import Foundation
import Glibc
import PhotoSyncTestSupport
import Synchronization
import Testing

/// Raw JSON for feed pages, so tests can put any type anywhere.
enum FeedJSON {
    /// One usable photo element; `extra` members (raw JSON) override the defaults.
    static func photo(_ id: String, owner: String = "Ana Lima", title: String = "T", extra: [String: String] = [:]) -> String {
        var members: [(String, String)] = [
            ("id", quoted(id)), ("owner", quoted("1@N01")), ("ownername", quoted(owner)), ("title", quoted(title)),
            ("description", #"{"_content":"D"}"#), ("dateupload", #""1700000000""#),
            ("server", #""65535""#), ("secret", #""abc""#),
        ]
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) {
            if let index = members.firstIndex(where: { $0.0 == key }) { members[index].1 = value } else { members.append((key, value)) }
        }
        return "{" + members.filter { $0.1 != "<absent>" }.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// A page around raw photo elements; counters are raw JSON too ("<absent>" leaves one out).
    static func page(_ number: Int, of pages: Int, perPage: Int = 2, total: Int = 4, photos: [String],
                     counters: [String: String] = [:]) -> String {
        var fields: [(String, String)] = [("page", "\(number)"), ("pages", "\(pages)"), ("perpage", "\(perPage)"), ("total", "\(total)")]
        for (key, value) in counters { if let index = fields.firstIndex(where: { $0.0 == key }) { fields[index].1 = value } }
        let inner = fields.filter { $0.1 != "<absent>" }.map { "\(quoted($0.0)):\($0.1)" } + [#""photo":[\#(photos.joined(separator: ","))]"#]
        return #"{"photos":{\#(inner.joined(separator: ","))},"stat":"ok"}"#
    }

    /// A JSON string literal for `text`.
    static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }
}

extension TestHTTPServer {
    static let feedPath = "/rest"
    var feedURL: String { url(Self.feedPath) }

    /// Serves `pages[n]` for `page=n` (404 otherwise).
    func serve(_ pages: [Int: String]) {
        route(Self.feedPath) { request in
            guard let number = request.query["page"].flatMap(Int.init), let body = pages[number] else { return .status(404) }
            return .text(body, headers: ["Content-Type": "application/json"])
        }
    }

    var requestedPages: [Int] { requests(to: Self.feedPath).compactMap { $0.query["page"].flatMap(Int.init) } }
}

/// Starts a TestHTTPServer and a sandbox, cleaning both up.
func withServerAndSandbox<T>(_ body: (TestHTTPServer, Sandbox) async throws -> T) async throws -> T {
    try await withSandbox(environment: Sandbox.inProcessServerEnvironment) { sandbox in
        try await TestHTTPServer.withRunning { server in try await body(server, sandbox) }
    }
}

/// `Fixtures/serve_feed.py --generate N` as a child process (deterministic pages on 127.0.0.1).
final class GeneratedFeed: Sendable {
    let photos: Int
    let perPage: Int
    let seed: Int
    private let server: FeedServerProcess
    var port: Int { server.port }
    var url: String { "http://127.0.0.1:\(port)/rest" }
    var pageCount: Int { (photos + perPage - 1) / perPage }

    private init(photos: Int, perPage: Int, seed: Int, server: FeedServerProcess) {
        (self.photos, self.perPage, self.seed, self.server) = (photos, perPage, seed, server)
    }

    /// `delay`: seconds the server waits before each answer (a walk that lasts at least pages × delay).
    static func start(photos: Int, perPage: Int, seed: Int = 1, delay: Double = 0) async throws -> GeneratedFeed {
        let server = try await FeedServerProcess.start(["--generate", "\(photos)", "--seed", "\(seed)", "--delay", "\(delay)"])
        return GeneratedFeed(photos: photos, perPage: perPage, seed: seed, server: server)
    }

    func stop() { server.stop() }

    /// The ids of every page (index 0 = page 1), from generate_feed.py itself.
    func pageIDs() async throws -> [[String]] {
        let key = "\(photos)/\(perPage)/\(seed)"
        if let cached = GeneratedFeed.cache.withLock({ $0[key] }) { return cached }
        let script = """
            import json, sys
            sys.path.insert(0, sys.argv[1])
            import generate_feed
            n, per, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            pages = -(-n // per)
            print(json.dumps([[p["id"] for p in generate_feed.page(k, n, per, seed)["photos"]["photo"]] for k in range(1, pages + 1)]))
            """
        let output = try await runTool("/usr/bin/env", ["python3", "-c", script, packageRoot + "/Fixtures", "\(photos)", "\(perPage)", "\(seed)"])
        let ids = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
        GeneratedFeed.cache.withLock { $0[key] = ids }
        return ids
    }

    private static let cache = Mutex<[String: [[String]]]>([:])
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a tool to completion off the cooperative pool and returns its stdout.
func runTool(_ path: String, _ args: [String]) async throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = args
    let out = FileManager.default.temporaryDirectory.path + "/photosync-faults-tool-" + UUID().uuidString
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: out) }
    process.standardOutput = FileHandle(forWritingAtPath: out)
    process.standardError = FileHandle.nullDevice
    try process.runOneAtATime()
    let status = await runOnDedicatedThread { () -> Int32 in
        process.waitUntilExit()
        return process.terminationStatus
    }
    guard status == 0 else { throw Failure("\(path) \(args.first ?? "") exited \(status)") }
    return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
}
