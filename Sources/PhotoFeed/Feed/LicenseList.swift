#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One license as `flickr.photos.licenses.getInfo` describes it.
public struct FeedLicense: Sendable, Equatable {
    /// 1–8 ASCII digits, as photos' `license` give it.
    public var id: String
    /// At most 256 bytes; the URL at most 1 KiB and `http(s)` only (else empty): feed text is untrusted.
    public var name: String
    public var url: String

    public init(id: String, name: String, url: String) { (self.id, self.name, self.url) = (id, name, url) }
}

/// Decodes `{"licenses":{"license":[{"id":4,"name":"…","url":"…"}]},"stat":"ok"}`. Flickr adds
/// licenses (CC 4.0 in 2025): the list is whatever the API says, never a built-in one.
public enum LicenseList {
    public static func decode(_ body: [UInt8]) throws(FeedError) -> [FeedLicense] {
        let response: Response
        do {
            response = try JSONDecoder().decode(Response.self, from: Data(body))
        } catch {
            throw .malformed("licenses.getInfo: not the expected JSON")
        }
        guard response.stat == "ok", let licenses = response.licenses?.license else {
            throw .api(code: response.code ?? 0, message: TextCap.cut(response.message ?? "licenses.getInfo failed", toBytes: 256))
        }
        return licenses.compactMap { item in
            guard let id = item.id, (1...8).contains(id.utf8.count), id.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            let url = item.url.flatMap { TextCap.within($0, bytes: 1024) } ?? ""
            let safeURL = url.hasPrefix("https://") || url.hasPrefix("http://") ? url : ""
            return FeedLicense(id: id, name: TextCap.cut(item.name ?? "", toBytes: 256), url: safeURL)
        }
    }

    private struct Response: Decodable {
        var stat: String?
        var code: Int?
        var message: String?
        var licenses: Licenses?
    }

    private struct Licenses: Decodable { var license: [Item]? }

    /// `id` arrives as a number or a string.
    private struct Item: Decodable {
        var id: String?
        var name: String?
        var url: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = (try? container.decode(Int.self, forKey: .id)).map(String.init) ?? (try? container.decode(String.self, forKey: .id))
            (name, url) = (try? container.decode(String.self, forKey: .name), try? container.decode(String.self, forKey: .url))
        }

        enum CodingKeys: String, CodingKey { case id, name, url }
    }
}
