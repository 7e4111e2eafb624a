import Foundation
import PhotoSyncTestSupport
import Testing

/// `/files/`: the downloaded images with caching and ranges, and nothing outside the folder.
@Suite(.serialized, .onTestThreads)
struct ServeFilesTests {
    let http = ServeHTTPTests()

    @Test func filesComeWithTypeETagRangesAnd304() async throws {
        try await http.withGallery(download: true) { fixture, gallery in
            let name = try #require(fixture.names().first { $0.hasPrefix("101_") })
            let bytes = try #require(fixture.contents(name))
            let whole = try await gallery.request("/files/" + name)
            #expect(whole.status == 200 && whole.body == bytes)
            #expect(whole.header("Content-Type") == "image/jpeg" && whole.header("Accept-Ranges") == "bytes")
            #expect(whole.header("Cache-Control")?.contains("max-age") == true && whole.header("Last-Modified") != nil)
            let etag = try #require(whole.header("ETag"))

            let part = try await gallery.request("/files/" + name, headers: ["Range": "bytes=10-19"])
            #expect(part.status == 206 && part.body == Array(bytes[10..<20]))
            #expect(part.header("Content-Range") == "bytes 10-19/\(bytes.count)")
            let tail = try await gallery.request("/files/" + name, headers: ["Range": "bytes=-5"])
            #expect(tail.status == 206 && tail.body == Array(bytes.suffix(5)))
            let outside = try await gallery.request("/files/" + name, headers: ["Range": "bytes=\(bytes.count)-"])
            #expect(outside.status == 416 && outside.header("Content-Range") == "bytes */\(bytes.count)")

            let cached = try await gallery.request("/files/" + name, headers: ["If-None-Match": etag])
            #expect(cached.status == 304 && cached.body.isEmpty && cached.header("Content-Length") == nil)
            let since = try await gallery.request("/files/" + name, headers: ["If-Modified-Since": try #require(whole.header("Last-Modified"))])
            #expect(since.status == 304)
            #expect(try await gallery.request("/files/" + name, headers: ["If-None-Match": "\"other\""]).status == 200)

            // The photo page shows the file, not Flickr's URL.
            let page = try await gallery.request("/photos/101")
            #expect(page.text.contains("src=\"/files/\(name)\"") && !page.text.contains("live.example.test/101"))
        }
    }

    @Test func nothingOutsideTheFilesFolderIsServed() async throws {
        try await http.withGallery(download: true) { fixture, gallery in
            let secret = fixture.photosync.directory + "/secret.txt"
            try "secret".write(toFile: secret, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: fixture.files + "/link.jpg", withDestinationPath: secret)
            try "part".write(toFile: fixture.files + "/.101_l.part", atomically: true, encoding: .utf8)
            let attempts = [
                "/files/../secret.txt", "/files/%2e%2e/secret.txt", "/files/%2e%2e%2fsecret.txt", "/files/..%2Fsecret.txt",
                "/files/\(secret)", "/files/%2F\(secret.dropFirst())", "/files//etc/passwd", "/files/link.jpg",
                "/files/101_l.jpg%00.txt", "/files/.101_l.part", "/files/", "/files/.",
            ]
            for path in attempts {
                let response = try await gallery.request(path)
                #expect(response.status == 404, "\(path): \(response.status)")
                #expect(!response.text.contains("secret") || response.text.contains("Nothing here"), "\(path)")
            }
        }
    }

    @Test func aPublicAddressAsksForTheTokenOnceThenACookie() async throws {
        try await http.withGallery(args: ["--host", "0.0.0.0"], environment: ["PHOTOSYNC_SERVE_TOKEN": "s3cret-token"]) { fixture, gallery in
            #expect(gallery.announced.hasSuffix("?token=s3cret-token"))
            #expect(try await gallery.request("/").status == 401)
            #expect(try await gallery.request("/api/photos?token=wrong").status == 401)
            #expect(try await gallery.request("/", headers: ["Cookie": "photosync_token=s3cret-tokem"]).status == 401)
            let visit = try await gallery.request("/api/photos?limit=1&token=s3cret-token")
            #expect(visit.status == 302 && visit.header("Location") == "/api/photos?limit=1")
            let cookie = try #require(visit.header("Set-Cookie"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let after = try await gallery.request("/api/photos?limit=1", headers: ["Cookie": String(cookie.split(separator: ";")[0])])
            #expect(after.status == 200)
            #expect(gallery.running.stderrSoFar.contains("reachable from other machines"))
        }
    }

    @Test func aPublicAddressWithoutATokenGetsARandomOne() async throws {
        try await http.withGallery(args: ["--host", "0.0.0.0"]) { _, gallery in
            let token = try #require(gallery.announced.split(separator: "=").last)
            #expect(token.count == 64)
            #expect(try await gallery.request("/").status == 401)
            #expect(try await gallery.request("/?token=\(token)").status == 302)
        }
    }
}
