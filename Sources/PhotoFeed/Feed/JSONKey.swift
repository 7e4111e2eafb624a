#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An object member's key, matched against the keys the decoder knows without making a `String`
/// (a page has some 14 keys per photo): `switch key { case "id": ... }`.
struct JSONKey {
    /// The key's UTF-8 in the input, or decoded when it had escapes.
    private let raw: UnsafeBufferPointer<UInt8>
    private let decoded: [UInt8]?

    init(_ raw: UnsafeBufferPointer<UInt8>) {
        (self.raw, decoded) = (raw, nil)
    }

    init(decoded: [UInt8]) {
        (raw, self.decoded) = (UnsafeBufferPointer(start: nil, count: 0), decoded)
    }

    /// The key's UTF-8 (decoded when it had escapes), for keys of a known shape.
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let decoded { return decoded.withUnsafeBufferPointer(body) }
        return body(raw)
    }

    static func == (key: JSONKey, literal: StaticString) -> Bool { key.matches(literal) }

    static func ~= (literal: StaticString, key: JSONKey) -> Bool { key.matches(literal) }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        if let decoded { return decoded.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: count)) }
        guard raw.count == count else { return false }
        guard count > 0, let base = raw.baseAddress else { return true }
        return memcmp(base, literal.utf8Start, count) == 0
    }
}
