import Foundation
import GraphStore

/// One request made to the API, for the hourly budget: when, and by which key (its fingerprint,
/// never the key). Kept for a day.
final class APICall: ManagedObject {
    /// Bookkeeping, not catalog content: `changes` never shows it, so history does not keep it.
    override class var keepsHistory: Bool { false }
    @Attribute(.indexed) var made = Date(timeIntervalSince1970: 0)
    @Attribute var key = ""
}
