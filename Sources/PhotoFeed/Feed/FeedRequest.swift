/// The `flickr.photos.getRecent` call photosync makes, or `flickr.photos.search` with `search`.
/// Always `nojsoncallback=1` (plain JSON, no JSONP), and the ``extras`` the decoder and the catalog use.
public struct FeedRequest: Sendable, Equatable {
    public var endpoint: String
    public var apiKey: String
    public var perPage: Int
    public var page: Int
    /// Search terms instead of the recent feed, walked newest first.
    public var search: FeedSearch?
    /// With `search`: only photos uploaded at or after this Unix time.
    public var minUploadDate: Int?
    /// With `search`: only photos uploaded at or before this Unix time (Flickr's bound is inclusive):
    /// where a cut walk of the search resumes.
    public var maxUploadDate: Int?

    public init(
        endpoint: String, apiKey: String, perPage: Int, page: Int, search: FeedSearch? = nil, minUploadDate: Int? = nil,
        maxUploadDate: Int? = nil
    ) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.perPage = perPage
        self.page = page
        self.search = search
        self.minUploadDate = minUploadDate
        self.maxUploadDate = maxUploadDate
    }

    /// What each photo comes with: the catalog's fields, and the metadata kept beside them.
    public static let extras = "description,license,date_upload,date_taken,owner_name,last_update,geo,tags,views,media,"
        + "url_sq,url_t,url_s,url_q,url_m,url_n,url_z,url_c,url_l,url_o,o_dims"

    /// The API method called.
    public var method: String { search == nil ? "flickr.photos.getRecent" : "flickr.photos.search" }

    /// `{endpoint}?method=flickr.photos.getRecent&api_key=KEY&format=json&nojsoncallback=1`
    /// `&extras=…&per_page=N&page=P` (``extras``); joined with `&`
    /// when the endpoint already has a query. The key and every search term are percent-encoded.
    /// A search adds its terms, `sort=date-posted-desc`, and `min_upload_date` and `max_upload_date` when set.
    public var url: String {
        var query = "method=\(method)&api_key=\(Self.percentEncoded(apiKey))"
            + "&format=json&nojsoncallback=1&extras=\(Self.extras)"
            + "&per_page=\(perPage)&page=\(page)"
        if let search {
            for (name, value) in search.parameters { query += "&\(name)=\(Self.percentEncoded(value))" }
            query += "&sort=date-posted-desc"
            if let minUploadDate { query += "&min_upload_date=\(minUploadDate)" }
            if let maxUploadDate { query += "&max_upload_date=\(maxUploadDate)" }
        }
        return endpoint + separator + query
    }

    /// `flickr.photos.licenses.getInfo` at the same endpoint with the same key: every license id
    /// with its name and URL.
    public var licensesURL: String {
        endpoint + separator + "method=flickr.photos.licenses.getInfo&api_key=\(Self.percentEncoded(apiKey))&format=json&nojsoncallback=1"
    }

    /// `flickr.photos.getInfo` for one photo at the same endpoint with the same key (a re-check).
    public func photoInfoURL(_ photoID: String) -> String {
        endpoint + separator + "method=flickr.photos.getInfo&api_key=\(Self.percentEncoded(apiKey))&photo_id=\(Self.percentEncoded(photoID))"
            + "&format=json&nojsoncallback=1"
    }

    private var separator: String {
        guard endpoint.contains("?") else { return "?" }
        return endpoint.hasSuffix("?") || endpoint.hasSuffix("&") ? "" : "&"
    }

    /// RFC 3986: everything but unreserved characters (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`.
    public static func percentEncoded(_ text: String) -> String {
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
