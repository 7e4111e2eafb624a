import Foundation
import PhotoSyncTestSupport
import Testing

/// `download` over HTTPS from nghttpd, an HTTP/2-only server (nghttp2-server): the images arrive
/// whole over h2, verified against a private CA given with `--ca-file` (verification stays on: the
/// same run without it is refused), and share one connection (streams multiplexed).
@Suite("download over HTTP/2", .onTestThreads)
struct DownloadHTTP2Tests {
    static let ids = ["201", "202", "203", "204", "205", "206"]

    static func image(_ index: Int) -> [UInt8] {
        index.isMultiple(of: 2) ? Images.jpeg(20_000 + index * 7_919, seed: UInt64(200 + index)) : Images.png(9_000 + index, seed: UInt64(200 + index))
    }

    @Test func severalImagesArriveOverOneHTTP2ConnectionAndAreVerified() async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        try await withDownloadFixture(.sqlite) { fixture in
            let served = fixture.photosync.directory + "/h2"
            try FileManager.default.createDirectory(atPath: served + "/img", withIntermediateDirectories: true)
            for (index, id) in Self.ids.enumerated() {
                try Data(Self.image(index)).write(to: URL(fileURLWithPath: "\(served)/img/\(id).jpg"))
            }
            let server = try await H2FileServer.start(serving: served, try await authority.issue("h2"))
            defer { server.stop() }
            let items = Self.ids.map { id in
                var item = FeedItem(id, by: "Ana Lima", title: "Photo \(id)")
                item.imageURL = "\(server.baseURL)/img/\(id).jpg"
                return item
            }
            try await fixture.fetch(items)

            // Verification is on: without the CA, nothing is accepted (and nothing is kept).
            let refused = try await fixture.download("--retries", "0")
            #expect(refused.status == 1 && refused.stderr.contains("SSL certificate problem"), "\(refused)")
            #expect(fixture.names().isEmpty, "\(fixture.names())")

            let result = try await fixture.download("--ca-file", authority.certificate, "--jobs", "4")
            #expect(result.status == 0, "\(result)")
            #expect(try jsonObject(result)["downloaded"] as? Int == Self.ids.count, "\(result)")
            for (index, id) in Self.ids.enumerated() {
                let name = index.isMultiple(of: 2) ? "\(id)_l.jpg" : "\(id)_l.png"
                #expect(fixture.contents(name) == Self.image(index), "\(name)")
            }

            // nghttpd speaks only h2; its log says what each connection negotiated and carried.
            let log = server.log
            #expect(log.contains("The negotiated protocol: h2"), "\(log.suffix(2_000))")
            let connections = Self.ids.map { server.connections(requesting: "/img/\($0).jpg") }
            #expect(connections.allSatisfy { $0.count == 1 }, "each image requested once: \(connections)")
            #expect(Set(connections.flatMap { $0 }).count == 1, "one connection, streams multiplexed: \(connections)")
        }
    }
}
