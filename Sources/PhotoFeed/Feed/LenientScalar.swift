/// A JSON scalar whatever its spelling: Flickr sends the same field as `"66"`, `66`, `66.0`
/// or (after one of its migrations) `true`, so every scalar is read as one of these and
/// converted at the point of use.
enum LenientScalar: Sendable, Equatable {
    case string(String)
    case int(Int)
    /// A number that is not a whole number fitting `Int`, with its literal as sent (messages
    /// quote it, not a `Double`'s rounding: `99999999999999999999999`, never `1e+23`).
    case double(Double, literal: String)
    case bool(Bool)
    case null
    /// An object or array where a scalar was expected.
    case nonScalar

    /// The value as text: strings as they are, numbers in their shortest decimal form.
    var text: String? {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value, _): Self.wholeNumber(value).map(String.init) ?? String(value)
        case .bool, .null, .nonScalar: nil
        }
    }

    /// The value as a whole number: `"42"`, `42` and `42.0` all give 42; `"1.5"` and `true` give nil.
    var integer: Int? {
        switch self {
        case .int(let value): value
        case .double(let value, _): Self.wholeNumber(value)
        case .string(let value): Int(value.trimmed)
        case .bool, .null, .nonScalar: nil
        }
    }

    /// True for `null` and for strings that are empty after trimming.
    var isBlank: Bool {
        switch self {
        case .null: true
        case .string(let value): value.trimmed.isEmpty
        case .int, .double, .bool, .nonScalar: false
        }
    }

    /// The value as it might appear in a one-line message.
    var shown: String {
        switch self {
        case .string(let value): Quoting.excerpt(value)
        case .int: text ?? ""
        case .double(_, let literal): literal.count <= 40 ? literal : literal.prefix(40) + "…"
        case .bool(let value): String(value)
        case .null: "null"
        case .nonScalar: "an object or array"
        }
    }

    private static func wholeNumber(_ value: Double) -> Int? {
        value.rounded() == value && abs(value) < 1e18 ? Int(value) : nil
    }
}
