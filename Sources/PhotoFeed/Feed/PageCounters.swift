/// `page`, `pages`, `perpage` and `total`. Flickr sends each as a number or a string.
/// `page` and `pages` drive the paging: a missing, negative or non-integer one makes the whole
/// page malformed. `perpage` and `total` are only reported, never needed to import, so whatever
/// they hold ("" seen in the wild, a negative, 99999999999999999999) reads as 0 and never rejects
/// a page. Large values are left alone: capping how far to page is the caller's policy.
struct PageCounters: Equatable, Sendable {
    var page: Int
    var pages: Int
    var perPage: Int
    var total: Int

    init(page: LenientScalar?, pages: LenientScalar?, perPage: LenientScalar?, total: LenientScalar?) throws(FeedError) {
        self.page = try Self.required("page", page)
        self.pages = try Self.required("pages", pages)
        self.perPage = Self.informational(perPage)
        self.total = Self.informational(total)
    }

    private static func required(_ name: String, _ raw: LenientScalar?) throws(FeedError) -> Int {
        guard let raw, raw != .null else { throw .malformed("missing \"\(name)\" in \"photos\"") }
        return try validated(name, raw)
    }

    /// A count the importer does not need: anything but a whole number ≥ 0 reads as 0.
    private static func informational(_ raw: LenientScalar?) -> Int {
        max(0, raw?.integer ?? 0)
    }

    private static func validated(_ name: String, _ raw: LenientScalar) throws(FeedError) -> Int {
        guard let value = raw.integer else {
            if case .double(_, let literal) = raw, literal.allSatisfy { $0.isASCII && $0.isNumber } {
                throw .malformed("\"\(name)\" is too large: \(raw.shown)")
            }
            throw .malformed("\"\(name)\" is not a whole number: \(raw.shown)")
        }
        guard value >= 0 else { throw .malformed("\"\(name)\" is \(value)") }
        return value
    }
}
