/// Decides, before libcurl sees a URL, whether its scheme may be fetched at all.
///
/// libcurl enforces the same through `CURLOPT_PROTOCOLS_STR`; checking here too
/// gives a clear `.schemeNotAllowed` instead of a generic libcurl failure.
enum URLScheme {
    static func check(_ url: String, allowFileScheme: Bool) throws(HTTPError) {
        guard !url.contains("\0"), let scheme = scheme(of: url) else {
            throw .invalidURL(URLRedaction.redact(url))
        }
        switch scheme {
        case "http", "https": return
        case "file" where allowFileScheme: return
        default: throw .schemeNotAllowed(URLRedaction.redact(url))
        }
    }

    static func isFile(_ url: String) -> Bool {
        scheme(of: url) == "file"
    }

    /// The lower-cased scheme before "://", when it is a valid RFC 3986 scheme.
    private static func scheme(of url: String) -> String? {
        guard let range = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<range.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }
}
