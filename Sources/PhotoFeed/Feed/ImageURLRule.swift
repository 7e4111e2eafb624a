/// Where a photo's 1024px image lives. `url_l` is authoritative when Flickr sends it;
/// otherwise the documented static-URL pattern is rebuilt from `server` and `secret`
/// (sizes below 1600px share the one `secret`, so `_b` can be built that way).
enum ImageURLRule {
    /// nil when neither `url_l` nor both `server` and `secret` are usable; the photo is then
    /// skipped rather than stored with an empty URL nobody could display.
    static func imageURL(id: String, largeURL: String?, server: String?, secret: String?) -> String? {
        if let largeURL, !largeURL.isEmpty { return largeURL }
        guard let server, !server.isEmpty, let secret, !secret.isEmpty else { return nil }
        return "https://live.staticflickr.com/\(server)/\(id)_\(secret)_b.jpg"
    }
}
