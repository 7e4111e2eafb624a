#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The metadata a photo keeps beside its title and upload time (issue 25): each nil when the feed
/// did not send it or sent something unusable (never a guess).
public struct PhotoMetadata: Sendable, Equatable {
    /// Flickr's license id (`license`): 1–8 ASCII digits.
    public var license: String?
    /// `datetaken` as sent: local time without a zone, never shifted. At most 64 bytes, one line.
    public var taken: String?
    /// Degrees; both nil when Flickr sent none, or 0/0 (its "no location").
    public var latitude: Double?
    public var longitude: Double?
    /// `lastupdate` (unix seconds, 1970–2099).
    public var lastUpdate: Date?
    /// `views`: a whole number, 0 or more.
    public var views: Int?
    /// `media`: `photo` or `video`.
    public var media: String?
    /// `tags`, normalized (see ``TagRule``), sorted, without repeats; nil when not sent.
    public var tags: [String]?
    /// Every image size the feed gave, smallest first (see ``PhotoSize``).
    public var sizes: [PhotoSize] = []

    public init() {}
}

/// The rules that turn the raw extras into ``PhotoMetadata``.
enum PhotoMetadataRules {
    static func metadata(_ raw: RawPhotoExtras, largeURL: LenientScalar?) -> PhotoMetadata {
        var details = PhotoMetadata()
        if let text = raw.license?.text?.trimmed, (1...8).contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            details.license = text
        }
        if let text = raw.dateTaken?.text?.trimmed, !text.isEmpty, text.utf8.count <= 64,
            !text.unicodeScalars.contains(where: \.isControl) {
            details.taken = text
        }
        if let latitude = degrees(raw.latitude, limit: 90), let longitude = degrees(raw.longitude, limit: 180), latitude != 0 || longitude != 0 {
            (details.latitude, details.longitude) = (latitude, longitude)
        }
        if let raw = raw.lastUpdate, !raw.isBlank { details.lastUpdate = UploadDateRule.date(raw).date }
        details.views = raw.views?.integer.flatMap { $0 >= 0 ? $0 : nil }
        details.media = raw.media?.text.flatMap { ["photo", "video"].contains($0) ? $0 : nil }
        details.sizes = raw.sizes.sizes(largeURL: largeURL)
        details.tags = raw.tags.map { TagRule.tags($0.text ?? "") }
        return details
    }

    /// A finite number of degrees within ±`limit`, sent as a number or a string.
    private static func degrees(_ raw: LenientScalar?, limit: Double) -> Double? {
        let value: Double? = switch raw {
        case .int(let number): Double(number)
        case .double(let number, _): number
        case .string(let text): Double(text.trimmed)
        default: nil
        }
        guard let value, value.isFinite, abs(value) <= limit else { return nil }
        return value
    }
}
