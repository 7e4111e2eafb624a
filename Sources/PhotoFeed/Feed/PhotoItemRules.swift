#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns one raw `photo` element into a `FeedPhoto`, or says why it cannot be used.
enum PhotoItemRules {
    /// `.success` with the photo, or `.failure` with the reason text (without the "photo N:" prefix).
    static func photo(from item: RawPhotoItem) -> Result<FeedPhoto, SkipReason> {
        guard item.isObject else { return .failure(SkipReason("not an object")) }
        if let problem = PhotoIDRule.problem(with: item.id) { return .failure(SkipReason(problem)) }
        let id = item.id?.text ?? ""
        guard let owner = owner(of: item) else { return .failure(SkipReason("no owner and no ownername")) }
        guard let url = ImageURLRule.imageURL(
            id: id, largeURL: item.largeURL?.text?.trimmed, server: item.server?.text, secret: item.secret?.text
        ) else { return .failure(SkipReason("no url_l and no server/secret")) }
        let (title, subtitle) = TitleRules.apply(title: item.title, description: item.description)
        return .success(FeedPhoto(
            id: id, title: title, subtitle: subtitle, imageURL: url,
            uploaded: uploadDate(item.dateUpload), ownerID: owner.id, ownerName: owner.name
        ))
    }

    /// Each of NSID and display name stands in for the other when blank; nil when both are.
    private static func owner(of item: RawPhotoItem) -> (id: String, name: String)? {
        let id = item.owner?.text?.trimmed ?? ""
        let name = item.ownerName?.text?.trimmed ?? ""
        if id.isEmpty && name.isEmpty { return nil }
        return (id.isEmpty ? name : id, name.isEmpty ? id : name)
    }

    /// `dateupload` is unix seconds, as a string or a number; anything else means "unknown".
    private static func uploadDate(_ raw: LenientScalar?) -> Date? {
        guard let seconds = raw?.integer, seconds >= 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

/// Why a photo element was skipped; an `Error` only so it can travel in a `Result`.
struct SkipReason: Error, Sendable {
    var text: String
    init(_ text: String) { self.text = text }
}
