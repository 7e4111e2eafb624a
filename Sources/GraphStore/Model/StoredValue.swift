#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value as a store keeps it: the five SQLite storage classes.
public enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension StoredValue {
    /// The value as plain text, for error reports (conflicts, migration duplicates).
    var text: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let value): "<\(value.count) bytes>"
        }
    }
}

/// The storage class an attribute declares (its column type).
public enum StorageType: String, Sendable, Codable {
    case integer = "INTEGER"
    case real = "REAL"
    case text = "TEXT"
    case blob = "BLOB"
}
