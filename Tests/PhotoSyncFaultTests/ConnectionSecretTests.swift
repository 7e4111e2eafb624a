import Foundation
import PhotoSyncTestSupport
import Testing

/// Secrets that arrive by other ways than `--api-key` (issue 21): a PostgreSQL password given as
/// a URL parameter (`password=`, `sslpassword=`), and the API key echoed back by the server inside
/// photo fields. Neither reaches stdout, stderr, the log file or the catalog.
@Suite("secrets in catalog URLs and in the feed", .onTestThreads)
struct ConnectionSecretTests {
    static let sslPassword = "SslPw-s3cr3t-9431"

    /// The test catalog's URL with its password moved from the user information to a parameter.
    static func urlWithPasswordParameter(_ postgres: PostgresTestCatalog) throws -> (url: String, password: String) {
        let components = try #require(URLComponents(string: postgres.url))
        let password = try #require(components.password)
        let url = postgres.url.replacingOccurrences(of: ":\(password)@", with: "@")
        return (url + "&password=\(password)&sslpassword=\(sslPassword)", password)
    }

    @Test func aPasswordGivenAsAURLParameterIsNeverShownOrStored() async throws {
        let postgres = try PostgresTestCatalog()
        let (url, password) = try Self.urlWithPasswordParameter(postgres)
        try await withServerAndSandbox { server, sandbox in
            let photos = [FeedJSON.photo("1"), FeedJSON.photo("2")]
            server.route(TestHTTPServer.feedPath) { request in
                request.query["page"] == "1" ? .text(FeedJSON.page(1, of: 2, photos: photos)) : .status(500)
            }
            let log = sandbox.directory + "/photosync.log"
            let fetch = try await sandbox.run(["fetch", "--url", server.feedURL, "--api-key", "k", "--retries", "0", "--verbose",
                                               "--log-file", log, "--db", url])
            #expect(fetch.status == 69, "the second page fails, so the run records an error: \(fetch)")
            var outputs = [fetch]
            for command in [["status"], ["status", "--format", "json"], ["config"], ["config", "--format", "json"], ["list", "--verbose"]] {
                let result = try await sandbox.run(command + ["--db", url, "--log-file", log])
                #expect(result.status == 0, "\(command): \(result)")
                outputs.append(result)
            }
            let missing = url.replacingOccurrences(of: "/photosync_test?", with: "/no_such_database?")
            let refused = try await sandbox.run(["status", "--db", missing])
            #expect(refused.status == 74 && refused.stderr.contains("no_such_database"), "\(refused)")
            outputs.append(refused)

            for output in outputs {
                for secret in [password, Self.sslPassword] {
                    #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret), "\(output)")
                }
            }
            #expect(outputs[1].stdout.contains("password=***") || outputs[1].stdout.contains("password=REDACTED"), "status shows the catalog: \(outputs[1])")
            let logged = try String(contentsOfFile: log, encoding: .utf8)
            #expect(!logged.isEmpty && !logged.contains(password) && !logged.contains(Self.sslPassword), "\(logged)")
            let stored = try postgres.psql(#"SELECT string_agg(r::text, ' ') FROM "FetchRun" r"#)
            #expect(stored.contains("failed") && !stored.contains(password) && !stored.contains(Self.sslPassword), "\(stored)")
        }
    }

    /// A server that echoes the API key in a title, an owner name, image URLs, tags and the date
    /// taken: the photos are stored with it redacted, and no output or catalog file holds it.
    @Test func anAPIKeyEchoedInPhotoFieldsIsNeitherStoredNorPrinted() async throws {
        let key = "EchoKey5f3a9c0d2b7e41aa"
        try await withServerAndSandbox { server, sandbox in
            let echoed = FeedJSON.photo("1", owner: "owner \(key)", title: "title with api_key=\(key) inside",
                                        extra: ["url_l": FeedJSON.quoted("https://live.example.test/\(key)/1_l.jpg"),
                                                "url_sq": FeedJSON.quoted("https://live.example.test/\(key)/1_sq.jpg"),
                                                "tags": FeedJSON.quoted("sea \(key)"), "datetaken": FeedJSON.quoted("2024-01-01 \(key)")])
            server.serve([1: FeedJSON.page(1, of: 1, perPage: 2, total: 2, photos: [echoed, FeedJSON.photo("2")])])
            let fetch = try await sandbox("fetch", "--url", server.feedURL, "--api-key", key)
            #expect(fetch.status == 0, "\(fetch)")
            var outputs = [fetch]
            for command in [["list"], ["list", "--format", "json"], ["show", "1"], ["show", "1", "--format", "json"], ["photographers"]] {
                outputs.append(try await sandbox.run(command + ["--db", sandbox.db]))
            }
            for output in outputs {
                #expect(output.status == 0 && !output.stdout.contains(key) && !output.stderr.contains(key), "\(output)")
            }
            let shown = try await sandbox("show", "1", "--format", "json").object()
            #expect((shown["title"] as? String)?.hasPrefix("title with api_key=") == true, "\(shown)")
            for suffix in ["", "-wal", "-shm"] {
                let bytes = FileManager.default.contents(atPath: sandbox.db + suffix) ?? Data()
                #expect(bytes.firstRange(of: Data(key.utf8)) == nil, "the catalog\(suffix) holds the key")
            }
        }
    }
}
