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

/// A photographer `delete --photographer` removed: later fetches skip their photos, whatever
/// their owner id, until `restore --photographer` undoes the whole delete.
final class ExcludedPhotographer: ManagedObject {
    @Attribute(.unique) var name = ""
    @Attribute var excluded = Date(timeIntervalSince1970: 0)
}
