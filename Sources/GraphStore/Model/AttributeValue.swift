#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Swift type an ``Attribute`` can hold: it knows its column type and how to convert to and from a ``StoredValue``.
///
/// Conforming types: `String`, `Int`, `Int64`, `Double`, `Bool`, `Date` (seconds since 2001, `REAL`),
/// `Data`, `URL` (as text), and `Optional` of any of them.
public protocol AttributeValue: Sendable {
    static var storageType: StorageType { get }
    /// Whether the column accepts NULL (only `Optional` says yes).
    static var isOptional: Bool { get }
    var storedValue: StoredValue { get }
    /// Converts back from the store; `nil` when the stored value has the wrong type.
    init?(storedValue: StoredValue)
    /// Converts back from the store into `value`; `false` (and `value` untouched) when the stored
    /// value has the wrong type. What loading a row calls: a generic caller of `init?(storedValue:)`
    /// looks up `Optional<Self>`'s type metadata every time, a third of materializing an object.
    /// The default calls `init?(storedValue:)`.
    static func decode(_ stored: StoredValue, into value: inout Self) -> Bool
    /// ``decode(_:into:)`` for an optional attribute of this type: NULL is nil.
    static func decode(_ stored: StoredValue, into value: inout Self?) -> Bool
}

extension AttributeValue {
    public static var isOptional: Bool { false }

    public static func decode(_ stored: StoredValue, into value: inout Self) -> Bool {
        guard let decoded = Self(storedValue: stored) else { return false }
        value = decoded
        return true
    }

    public static func decode(_ stored: StoredValue, into value: inout Self?) -> Bool {
        guard let decoded = Self?(storedValue: stored) else { return false }
        value = decoded
        return true
    }
}

extension String: AttributeValue {
    public static var storageType: StorageType { .text }
    public var storedValue: StoredValue { .text(self) }
    public init?(storedValue: StoredValue) {
        guard case .text(let value) = storedValue else { return nil }
        self = value
    }
    public static func decode(_ stored: StoredValue, into value: inout String) -> Bool {
        guard case .text(let text) = stored else { return false }
        value = text
        return true
    }
    public static func decode(_ stored: StoredValue, into value: inout String?) -> Bool {
        switch stored {
        case .text(let text): value = text
        case .null: value = nil
        default: return false
        }
        return true
    }
}

extension Int64: AttributeValue {
    public static var storageType: StorageType { .integer }
    public var storedValue: StoredValue { .integer(self) }
    public init?(storedValue: StoredValue) {
        guard case .integer(let value) = storedValue else { return nil }
        self = value
    }
}

extension Int: AttributeValue {
    public static var storageType: StorageType { .integer }
    public var storedValue: StoredValue { .integer(Int64(self)) }
    public init?(storedValue: StoredValue) {
        guard case .integer(let value) = storedValue, let int = Int(exactly: value) else { return nil }
        self = int
    }
    public static func decode(_ stored: StoredValue, into value: inout Int) -> Bool {
        guard case .integer(let number) = stored, let int = Int(exactly: number) else { return false }
        value = int
        return true
    }
    public static func decode(_ stored: StoredValue, into value: inout Int?) -> Bool {
        if case .null = stored {
            value = nil
            return true
        }
        guard case .integer(let number) = stored, let int = Int(exactly: number) else { return false }
        value = int
        return true
    }
}

extension Double: AttributeValue {
    public static var storageType: StorageType { .real }
    public var storedValue: StoredValue { .real(self) }
    public init?(storedValue: StoredValue) {
        switch storedValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
    public static func decode(_ stored: StoredValue, into value: inout Double?) -> Bool {
        if case .null = stored {
            value = nil
            return true
        }
        guard let number = Double(storedValue: stored) else { return false }
        value = number
        return true
    }
}

extension Bool: AttributeValue {
    public static var storageType: StorageType { .integer }
    public var storedValue: StoredValue { .integer(self ? 1 : 0) }
    public init?(storedValue: StoredValue) {
        guard case .integer(let value) = storedValue, value == 0 || value == 1 else { return nil }
        self = value == 1
    }
}

/// Stored as `timeIntervalSinceReferenceDate` (seconds since 2001, Core Data's encoding): that
/// `Double` is the one a `Date` holds, so every date comes back `==` to the one saved. Seconds since
/// 1970 are computed by an addition that rounds (half of all dates came back 1e-7 s off).
extension Date: AttributeValue {
    public static var storageType: StorageType { .real }
    public var storedValue: StoredValue { .real(timeIntervalSinceReferenceDate) }
    public init?(storedValue: StoredValue) {
        guard let seconds = Double(storedValue: storedValue) else { return nil }
        self.init(timeIntervalSinceReferenceDate: seconds)
    }
    public static func decode(_ stored: StoredValue, into value: inout Date) -> Bool {
        guard let date = Date(storedValue: stored) else { return false }
        value = date
        return true
    }
    public static func decode(_ stored: StoredValue, into value: inout Date?) -> Bool {
        if case .null = stored {
            value = nil
            return true
        }
        guard let date = Date(storedValue: stored) else { return false }
        value = date
        return true
    }
}

extension Data: AttributeValue {
    public static var storageType: StorageType { .blob }
    public var storedValue: StoredValue { .blob(self) }
    public init?(storedValue: StoredValue) {
        guard case .blob(let value) = storedValue else { return nil }
        self = value
    }
}

extension URL: AttributeValue {
    public static var storageType: StorageType { .text }
    public var storedValue: StoredValue { .text(absoluteString) }
    public init?(storedValue: StoredValue) {
        guard case .text(let text) = storedValue, let url = URL(string: text) else { return nil }
        self = url
    }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public static var storageType: StorageType { Wrapped.storageType }
    public static var isOptional: Bool { true }
    public var storedValue: StoredValue { self?.storedValue ?? .null }
    public init?(storedValue: StoredValue) {
        if case .null = storedValue {
            self = .none
        } else if let value = Wrapped(storedValue: storedValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
    public static func decode(_ stored: StoredValue, into value: inout Self) -> Bool {
        Wrapped.decode(stored, into: &value)
    }
}
