/// The headers every reply carries: a CSP that lets a page load only photosync's own files
/// (plus Flickr's image hosts when remote images are on), no MIME sniffing, no referrer, no
/// framing.
enum SecurityHeaders {
    /// Flickr's image hosts (`live.staticflickr.com`, `farm1.staticflickr.com`, ...).
    static let flickrImages = "https://*.staticflickr.com"

    static func apply(to reply: inout HTTPReply, remoteImages: Bool) {
        let images = remoteImages ? "'self' \(flickrImages)" : "'self'"
        reply.set("Content-Security-Policy", "default-src 'self'; img-src \(images); base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
        reply.set("X-Content-Type-Options", "nosniff")
        reply.set("Referrer-Policy", "no-referrer")
        reply.set("X-Frame-Options", "DENY")
        if reply.header("Cache-Control") == nil { reply.set("Cache-Control", "no-store") }
    }
}
