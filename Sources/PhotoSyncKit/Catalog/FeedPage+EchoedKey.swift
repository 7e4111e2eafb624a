import Foundation
import PhotoFeed

extension FeedPage {
    /// The page with the API key redacted from every photo's text, for a server that echoes it
    /// back inside photo fields (title, description, owner, URL): the catalog is read by every
    /// role that can read it, and `list` prints it. Only a body that holds the key (as sent, or
    /// percent-encoded) is searched, so an ordinary page costs one scan of its bytes.
    func redactingEchoes(of key: String?, in body: [UInt8]) -> FeedPage {
        guard let key, !key.isEmpty, Self.holds(key, body) else { return self }
        var page = self
        for index in page.photos.indices {
            page.photos[index].redactSecrets()
        }
        return page
    }

    private static func holds(_ key: String, _ body: [UInt8]) -> Bool {
        let forms = [key, key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key]
        return forms.contains { form in body.firstRange(of: Array(form.utf8)) != nil || body.firstRange(of: Array(form.lowercased().utf8)) != nil }
    }
}

extension FeedPhoto {
    fileprivate mutating func redactSecrets() {
        title = Secrets.redact(title)
        subtitle = Secrets.redact(subtitle)
        imageURL = Secrets.redact(imageURL)
        ownerID = Secrets.redact(ownerID)
        ownerName = Secrets.redact(ownerName)
    }
}
