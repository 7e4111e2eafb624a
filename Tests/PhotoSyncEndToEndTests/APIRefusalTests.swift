import Foundation
import PhotoSyncTestSupport
import Testing

/// How the API's refusals end a fetch: Flickr's error codes (sent with HTTP 200), a long
/// `Retry-After`, a `file://` feed that is not there.
@Suite("API refusals: error codes, long Retry-After, missing file", .onTestThreads)
struct APIRefusalTests {
    static let twoPages = Feed.pages([
        FeedItem("1", by: "Ana Lima", title: "A"), FeedItem("2", by: "Ana Lima", title: "B"),
        FeedItem("3", by: "Bruno Costa", title: "C"), FeedItem("4", by: "Bruno Costa", title: "D"),
    ], perPage: 2)

    static func failure(_ code: Int, _ message: String) -> String {
        #"{"stat":"fail","code":\#(code),"message":"\#(message)"}"#
    }

    @Test func invalidKeyExits77NamingTheFlagWithoutTheKey() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .text(Self.failure(100, "Invalid API Key (Key has invalid format)")))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "SECRET-KEY-77")
            #expect(fetch.status == 77, "\(fetch)")
            #expect(fetch.stderrLines.count == 1 && fetch.stderr.contains("--api-key"), "\(fetch)")
            #expect(!fetch.stderr.contains("SECRET-KEY-77"), "\(fetch)")
            #expect(server.requestedPages == [1], "an invalid key is not retried")
        }
    }

    @Test func invalidKeyNamesTheEnvironmentVariable() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .text(Self.failure(100, "Invalid API Key")))
            let fetch = try await photosync("fetch", "--url", server.feedURL, environment: ["PHOTOSYNC_API_KEY": "SECRET-KEY-77"])
            #expect(fetch.status == 77, "\(fetch)")
            #expect(fetch.stderr.contains("PHOTOSYNC_API_KEY") && !fetch.stderr.contains("SECRET-KEY-77"), "\(fetch)")
        }
    }

    @Test func invalidKeyNamesTheConfigFile() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .text(Self.failure(100, "Invalid API Key")))
            let config = photosync.directory + "/config/keyed.yaml"
            try "api_key: SECRET-KEY-77\n".write(toFile: config, atomically: true, encoding: .utf8)
            let fetch = try await photosync("fetch", "--config", config, "--url", server.feedURL)
            #expect(fetch.status == 77, "\(fetch)")
            #expect(fetch.stderr.contains(config) && !fetch.stderr.contains("SECRET-KEY-77"), "\(fetch)")
        }
    }

    @Test(arguments: [111, 112, 116])
    func requestsTheAPICannotServeExit69(code: Int) async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .text(Self.failure(code, "Format x not found")))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 69, "\(fetch)")
            #expect(fetch.stderrLines.count == 1 && fetch.stderr.contains("\(code)"), "\(fetch)")
            #expect(server.requestedPages == [1])
        }
    }

    @Test(arguments: [105, 106])
    func temporaryCodesAreRetried(code: Int) async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path, .text(Self.failure(code, "Service currently unavailable")), .text(Self.twoPages[1]!), .text(Self.twoPages[2]!))
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k", "--format", "json")
            #expect(fetch.status == 0, "\(fetch)")
            #expect(server.requestedPages == [1, 1, 2])
            #expect(try jsonObject(fetch)["inserted"] as? Int == 4)
        }
    }

    @Test func aLongRetryAfterStopsTheFetchWith75AndKeepsEarlierPages() async throws {
        try await withSandbox { photosync, server in
            server.route(Feed.path) { request in
                request.query["page"] == "1" ? .text(Self.twoPages[1]!) : .status(429, headers: ["Retry-After": "3600"])
            }
            let fetch = try await photosync("fetch", "--url", server.feedURL, "--api-key", "k")
            #expect(fetch.status == 75, "\(fetch)")
            #expect(fetch.stderrLines.count == 1 && fetch.stderr.contains("3600 s") && fetch.stderr.contains("--wait"), "\(fetch)")
            #expect(server.requestedPages == [1, 2], "the long wait is not slept through, nor retried")
            let list = try jsonArray(try await photosync("list", "--format", "json"))
            #expect(Set(list.compactMap { $0["id"] as? String }) == ["1", "2"])
            try await expectInvariants(photosync)
        }
    }

    @Test func aMissingFileFeedExits66() async throws {
        try await withSandbox { photosync, _ in
            let missing = photosync.directory + "/no-such-feed.json"
            let fetch = try await photosync("fetch", "--url", "file://" + missing)
            #expect(fetch.status == 66, "\(fetch)")
            #expect(fetch.stderrLines.count == 1 && fetch.stderr.contains("no-such-feed.json"), "\(fetch)")
        }
    }
}
