#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A value as a store keeps it: the five SQLite storage classes.
///
/// Text is equal and hashed as its UTF-8 bytes, the way SQLite's unique indexes compare it (BINARY
/// collation), not by Swift's canonical equivalence: "é" precomposed and "e" + combining accent are
/// two values to the store, so they are two here too. Bytes are also much cheaper to hash than
/// a `String`, which normalizes non-ASCII text first.
public enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

extension StoredValue {
    public static func == (lhs: StoredValue, rhs: StoredValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.text(let a), .text(let b)): a.utf8.count == b.utf8.count && a.withUTF8Bytes { x in b.withUTF8Bytes { y in
            x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0
        } }
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .real(let value): hasher.combine(2 as UInt8); hasher.combine(value)
        case .text(let value): hasher.combine(3 as UInt8); value.withUTF8Bytes { hasher.combine(bytes: $0) }
        case .blob(let value): hasher.combine(4 as UInt8); hasher.combine(value)
        }
    }
}

extension String {
    /// The string's UTF-8 bytes, in place for a native string (`withUTF8` needs a `var`).
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
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
