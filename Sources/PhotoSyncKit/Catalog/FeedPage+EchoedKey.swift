import Foundation
import PhotoFeed

extension FeedPage {
    /// Keys shorter than this are not looked for in photo fields: a real key is 32 characters,
    /// and a short one would match ordinary words.
    static let shortestEchoedKey = 8

    /// The page with the API key replaced by `[redacted]` in every photo's text, for a server that
    /// echoes it back inside photo fields (title, description, owner, URLs, date taken, tags): the catalog is read by
    /// every role that can read it, and `list` prints it. Only a body that holds the key (as sent,
    /// or percent-encoded) is searched, so an ordinary page costs one scan of its bytes.
    func redactingEchoes(of key: String?, in body: [UInt8]) -> FeedPage {
        guard let key, key.count >= Self.shortestEchoedKey else { return self }
        let forms = Set([key, key.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? key])
        guard forms.contains(where: { Self.bytes(body, contain: $0) }) else { return self }
        var page = self
        for index in page.photos.indices {
            page.photos[index].redact(forms)
        }
        return page
    }

    private static func bytes(_ body: [UInt8], contain text: String) -> Bool {
        body.firstRange(of: Array(text.utf8)) != nil
    }
}

extension FeedPhoto {
    fileprivate mutating func redact(_ forms: Set<String>) {
        for form in forms {
            for keyPath in [\FeedPhoto.title, \.subtitle, \.imageURL, \.ownerID, \.ownerName] where self[keyPath: keyPath].contains(form) {
                self[keyPath: keyPath] = self[keyPath: keyPath].replacing(form, with: "[redacted]")
            }
            metadata.redact(form)
        }
    }
}

extension PhotoMetadata {
    /// The metadata's free text (date taken, tags, size URLs) without `form`; a tag keeps its
    /// normalized form (letters and digits).
    fileprivate mutating func redact(_ form: String) {
        taken = taken.map { $0.replacing(form, with: "[redacted]") }
        tags = tags.map { tags in Array(Set(tags.map { $0.replacing(form.lowercased(), with: "redacted") })).sorted() }
        for index in sizes.indices { sizes[index].url = sizes[index].url.replacing(form, with: "[redacted]") }
    }
}
