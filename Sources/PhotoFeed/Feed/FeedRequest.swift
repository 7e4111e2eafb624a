/// The `flickr.photos.getRecent` call photosync makes. Always `nojsoncallback=1` (plain JSON,
/// no JSONP), and exactly the extras the decoder reads: description, owner_name, date_upload, url_l.
public struct FeedRequest: Sendable, Equatable {
    public var endpoint: String
    public var apiKey: String
    public var perPage: Int
    public var page: Int

    public init(endpoint: String, apiKey: String, perPage: Int, page: Int) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.perPage = perPage
        self.page = page
    }

    /// `{endpoint}?method=flickr.photos.getRecent&api_key=KEY&format=json&nojsoncallback=1`
    /// `&extras=description,owner_name,date_upload,url_l&per_page=N&page=P`; joined with `&`
    /// when the endpoint already has a query. The key is percent-encoded.
    public var url: String {
        let query = "method=flickr.photos.getRecent&api_key=\(Self.percentEncoded(apiKey))"
            + "&format=json&nojsoncallback=1&extras=description,owner_name,date_upload,url_l"
            + "&per_page=\(perPage)&page=\(page)"
        return endpoint + separator + query
    }

    private var separator: String {
        guard endpoint.contains("?") else { return "?" }
        return endpoint.hasSuffix("?") || endpoint.hasSuffix("&") ? "" : "&"
    }

    /// RFC 3986: everything but unreserved characters (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + hexDigit(byte >> 4) + hexDigit(byte & 0x0F)
            }
        }
        return encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> String {
        String(nibble, radix: 16, uppercase: true)
    }
}
