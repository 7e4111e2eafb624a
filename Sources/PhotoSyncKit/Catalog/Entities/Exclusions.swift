import Foundation
import GraphStore

/// A photo id `delete` removed: later fetches skip it until `restore` forgets it. Deleting is the
/// user's decision and must survive the next cron fetch.
final class ExcludedPhoto: ManagedObject {
    @Attribute(.unique) var unique = ""
    /// The photographer whose `delete --photographer` excluded it (restored with them), if any.
    @Attribute(.indexed) var photographer: String? = nil
    @Attribute var excluded = Date(timeIntervalSince1970: 0)
}

/// A photographer `delete --photographer` removed: later fetches skip their photos, sent under
/// that name (whatever their owner id) or by that account (whatever its name then), until
/// `restore --photographer` undoes the whole delete.
final class ExcludedPhotographer: ManagedObject {
    @Attribute(.unique) var name = ""
    /// The account's NSID when it was deleted (nil for deletes before model 9).
    @Attribute var ownerID: String? = nil
    @Attribute var excluded = Date(timeIntervalSince1970: 0)
}
