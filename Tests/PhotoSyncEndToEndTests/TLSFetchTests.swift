import Foundation
import PhotoSyncTestSupport
import Testing

/// `fetch` over HTTPS from a real TLS server on 127.0.0.1 (Fixtures/serve_feed.py with
/// certificates openssl makes here): verification refuses what it must (exit 69, nothing saved)
/// and `--ca-file`, `PHOTOSYNC_CA_FILE` or `ca_file` make a private CA's server trusted.
@Suite("TLS verification and --ca-file", .onTestThreads)
struct TLSFetchTests {
    /// The photo count `status --format json` reports (0 without a catalog).
    private func photoCount(_ photosync: PhotoSync) async throws -> Int {
        let status = try await photosync("status", "--format", "json")
        guard status.status == 0 else { return 0 }
        return try jsonObject(status)["photos"] as? Int ?? -1
    }

    @Test func aPrivateCAIsRefusedUntilGivenByFlagEnvironmentOrConfig() async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let server = try await TLSFeedServer.start(try await authority.issue("server"))
        defer { server.stop() }
        let photosync = try PhotoSync()
        defer { photosync.remove() }

        let refused = try await photosync("fetch", "--url", server.url, "--api-key", "k", "--pages", "1", "--retries", "0")
        #expect(refused.status == 69, "\(refused)")
        #expect(refused.stderr.contains("SSL certificate problem"), "\(refused)")
        #expect(try await photoCount(photosync) == 0)

        let byFlag = try await photosync(
            "fetch", "--url", server.url, "--api-key", "k", "--pages", "1", "--ca-file", authority.certificate, "--format", "json")
        #expect(byFlag.status == 0, "\(byFlag)")
        let inserted = try jsonObject(byFlag)["inserted"] as? Int ?? 0
        #expect(inserted > 0, "\(byFlag)")
        #expect(try await photoCount(photosync) == inserted)

        let byEnvironment = try await photosync(
            "fetch", "--url", server.url, "--api-key", "k", "--pages", "1", "--full",
            environment: ["PHOTOSYNC_CA_FILE": authority.certificate])
        #expect(byEnvironment.status == 0, "\(byEnvironment)")

        let config = photosync.directory + "/config.yaml"
        try "ca_file: \(authority.certificate)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let byConfig = try await photosync("fetch", "--config", config, "--url", server.url, "--api-key", "k", "--pages", "1", "--full")
        #expect(byConfig.status == 0, "\(byConfig)")
        let shown = try await photosync("config", "--config", config, "--format", "json")
        let entry = try jsonObject(shown)["ca_file"] as? [String: Any]
        #expect(entry?["value"] as? String == authority.certificate && entry?["source"] as? String == "file \(config)", "\(shown)")
    }

    /// The CA is given, but the certificate names another host, or expired yesterday: both refused.
    @Test(arguments: [("wrong-name", "DNS:photos.example", 30, "127.0.0.1"), ("expired", "IP:127.0.0.1", -1, "expired")])
    func aCertificateTheCASignedIsStillRefusedWhen(_ label: String, _ subjectAltName: String, _ days: Int, _ reason: String) async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let server = try await TLSFeedServer.start(try await authority.issue(label, subjectAltName: subjectAltName, days: days))
        defer { server.stop() }
        let photosync = try PhotoSync()
        defer { photosync.remove() }

        let fetch = try await photosync(
            "fetch", "--url", server.url, "--api-key", "k", "--pages", "1", "--retries", "0", "--ca-file", authority.certificate)
        #expect(fetch.status == 69, "\(fetch)")
        #expect(fetch.stderr.contains("TLS") && fetch.stderr.contains(reason), "\(fetch)")
        #expect(try await photoCount(photosync) == 0)
    }

    /// A CA file that is not there is a configuration error (78) naming where it was set, before
    /// any request or catalog.
    @Test func aMissingCAFileIsAConfigurationError() async throws {
        let photosync = try PhotoSync()
        defer { photosync.remove() }
        let missing = photosync.directory + "/no-such-ca.pem"

        let byFlag = try await photosync("fetch", "--url", "https://api.example.invalid/rest", "--api-key", "k", "--ca-file", missing)
        #expect(byFlag.status == 78, "\(byFlag)")
        #expect(byFlag.stderr.contains("--ca-file \(missing): no such file"), "\(byFlag)")
        let byEnvironment = try await photosync(
            "fetch", "--url", "https://api.example.invalid/rest", "--api-key", "k", environment: ["PHOTOSYNC_CA_FILE": photosync.directory])
        #expect(byEnvironment.status == 78, "\(byEnvironment)")
        #expect(byEnvironment.stderr.contains("PHOTOSYNC_CA_FILE \(photosync.directory): not a readable file"), "\(byEnvironment)")
        #expect(!FileManager.default.fileExists(atPath: photosync.db))
    }
}
