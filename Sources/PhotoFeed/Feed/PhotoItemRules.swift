#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns one raw `photo` element into a `FeedPhoto`, or says why it cannot be used.
enum PhotoItemRules {
    /// `.success` with the photo, or `.failure` with the reason text (without the "photo N:" prefix).
    /// A value the photo is kept without (an upload date outside the sane range) adds its reason
    /// to `notes`.
    static func photo(from item: RawPhotoItem, notes: inout [String]) -> Result<FeedPhoto, SkipReason> {
        guard item.isObject else { return .failure(SkipReason("not an object")) }
        if let problem = PhotoIDRule.problem(with: item.id, numberText: item.idNumberText) { return .failure(SkipReason(problem)) }
        let id = PhotoIDRule.text(item.id, numberText: item.idNumberText) ?? ""
        guard let owner = owner(of: item) else { return .failure(SkipReason("no owner and no ownername")) }
        guard let url = ImageURLRule.imageURL(
            id: id, largeURL: TextCap.within(item.largeURL?.text?.trimmed, bytes: TextCap.url),
            server: TextCap.within(item.server?.text, bytes: TextCap.urlPart),
            secret: TextCap.within(item.secret?.text, bytes: TextCap.urlPart)
        ) else { return .failure(SkipReason("no url_l and no server/secret")) }
        let (title, subtitle) = TitleRules.apply(title: item.title, description: item.description)
        let uploaded = UploadDateRule.date(item.dateUpload)
        if let problem = uploaded.problem { notes.append(problem) }
        var photo = FeedPhoto(
            id: id, title: TextCap.cut(title, toBytes: TextCap.longText), subtitle: TextCap.cut(subtitle, toBytes: TextCap.longText),
            imageURL: url, uploaded: uploaded.date, ownerID: owner.id, ownerName: owner.name
        )
        photo.metadata = PhotoMetadataRules.metadata(item.extras, largeURL: item.largeURL)
        return .success(photo)
    }

    /// `photo(from:notes:)`, notes dropped.
    static func photo(from item: RawPhotoItem) -> Result<FeedPhoto, SkipReason> {
        var notes: [String] = []
        return photo(from: item, notes: &notes)
    }

    /// Each of NSID and display name stands in for the other when blank; nil when both are.
    /// Each is capped at `TextCap.name` bytes.
    private static func owner(of item: RawPhotoItem) -> (id: String, name: String)? {
        let id = TextCap.cut(item.owner?.text?.trimmed ?? "", toBytes: TextCap.name)
        let name = TextCap.cut(item.ownerName?.text?.trimmed ?? "", toBytes: TextCap.name)
        if id.isEmpty && name.isEmpty { return nil }
        return (id.isEmpty ? name : id, name.isEmpty ? id : name)
    }
}

/// Why a photo element was skipped; an `Error` only so it can travel in a `Result`.
struct SkipReason: Error, Sendable {
    var text: String
    init(_ text: String) { self.text = text }
}
