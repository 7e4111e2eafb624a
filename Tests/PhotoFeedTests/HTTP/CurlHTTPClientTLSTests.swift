import Foundation
import PhotoFeed
import PhotoSyncTestSupport
import Testing

/// TLS verification against a real TLS server (Python's ssl module) on 127.0.0.1, with
/// certificates made by openssl for each test. Each refusal changes one thing from the accepted
/// case: the CA the client trusts, the name in the certificate, or its dates.
@Suite(.onTestThreads) struct CurlHTTPClientTLSTests {
    private func client(caFile: String?) -> CurlHTTPClient {
        CurlHTTPClient(configuration: HTTPClientConfiguration(timeout: 180, retries: 2, caFile: caFile), sleep: { _ in })
    }

    /// With the CA given, a certificate for 127.0.0.1 it signed is accepted and the page arrives.
    @Test func acceptedWhenTheCAIsGiven() async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let server = try await TLSFeedServer.start(try await authority.issue("server"))
        defer { server.stop() }

        let result = await client(caFile: authority.certificate).fetch(server.url + "?page=1")

        let response = try result.get()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"photos\""))
    }

    /// Without a CA file the system's CAs decide, and none of them signed the test CA's certificate;
    /// with another CA's file the same. Both are final TLS errors (no retry).
    @Test func refusedWithAnUnknownCA() async throws {
        let authority = try await TestCertificateAuthority()
        let stranger = try await TestCertificateAuthority(name: "some other CA")
        defer { authority.remove(); stranger.remove() }
        let server = try await TLSFeedServer.start(try await authority.issue("server"))
        defer { server.stop() }

        for caFile in [nil, stranger.certificate] {
            let result = await client(caFile: caFile).fetch(server.url + "?page=1")
            guard case .tls(let message) = result.failure else {
                Issue.record("CA file \(caFile ?? "none"): expected a TLS error, got \(result)")
                continue
            }
            #expect(message.contains("certificate"), "\(message)")
        }
    }

    /// A certificate the trusted CA signed for another name (photos.example, not 127.0.0.1).
    @Test func refusedWithAWrongHostName() async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let server = try await TLSFeedServer.start(try await authority.issue("elsewhere", subjectAltName: "DNS:photos.example"))
        defer { server.stop() }

        let result = await client(caFile: authority.certificate).fetch(server.url + "?page=1")

        guard case .tls(let message) = result.failure else {
            Issue.record("expected a TLS error, got \(result)")
            return
        }
        #expect(message.contains("127.0.0.1"), "\(message)")
    }

    /// A certificate the trusted CA signed for 127.0.0.1 that expired yesterday.
    @Test func refusedWithAnExpiredCertificate() async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let server = try await TLSFeedServer.start(try await authority.issue("expired", days: -1))
        defer { server.stop() }

        let result = await client(caFile: authority.certificate).fetch(server.url + "?page=1")

        guard case .tls(let message) = result.failure else {
            Issue.record("expected a TLS error, got \(result)")
            return
        }
        #expect(message.contains("expired"), "\(message)")
    }
}
