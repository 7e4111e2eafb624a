import Foundation
import PhotoSyncTestSupport
import Testing

/// What serve exposes beyond its own files: Flickr's images only when the config turns them on,
/// and a public address without a token only when asked for with `--no-token`.
@Suite(.serialized, .onTestThreads)
struct ServeExposureTests {
    let http = ServeHTTPTests()

    /// No file downloaded: by default a placeholder and never the feed's image URL, and a CSP that
    /// allows images from serve alone; with `serve_remote_images: true` in the config file the
    /// image is hot-linked and the CSP allows Flickr's image hosts.
    @Test(arguments: [false, true])
    func remoteImagesAreHotLinkedOnlyWhenTheConfigSaysSo(_ remote: Bool) async throws {
        try await http.withGallery(configuring: remote ? "serve_remote_images: true\n" : nil) { fixture, gallery in
            let page = try await gallery.request("/photographers/Ana%20Lima")
            let photo = try await gallery.request("/photos/101")
            let imageURL = fixture.server.url("/img/101.jpg")
            let csp = try #require(page.header("Content-Security-Policy"))
            if remote {
                #expect(csp.contains("img-src 'self' https://*.staticflickr.com;"), "\(csp)")
                #expect(page.text.contains("<img class=\"thumb\" src=\"\(imageURL)\""), "\(page.text)")
                #expect(photo.text.contains("src=\"\(imageURL)\""), "\(photo.text)")
            } else {
                #expect(csp.contains("img-src 'self';") && !csp.contains("staticflickr"), "\(csp)")
                #expect(!page.text.contains("<img") && page.text.contains("placeholder"), "\(page.text)")
                #expect(!photo.text.contains("src=\"\(imageURL)\""), "\(photo.text)")
            }
        }
    }

    @Test func aPublicAddressWithNoTokenServesEveryoneAndSaysSo() async throws {
        try await http.withGallery(args: ["--host", "0.0.0.0", "--no-token"]) { _, gallery in
            #expect(!gallery.announced.contains("token"), "\(gallery.announced)")
            let home = try await gallery.request("/")
            #expect(home.status == 200 && home.header("Set-Cookie") == nil)
            #expect(try await gallery.request("/api/photos").status == 200)
            #expect(gallery.running.stderrSoFar.contains("reachable from other machines"), "\(gallery.running.stderrSoFar)")
        }
    }
}
