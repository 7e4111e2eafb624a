/// `page`, `pages`, `perpage` and `total`, validated. Flickr sends each as a number or a
/// string; `total` may be "" (seen in the wild) and then means 0. Negative values mean the
/// response cannot be trusted for paging, so they make the whole page malformed.
/// Large values are left alone: capping how far to page is the caller's policy.
struct PageCounters: Equatable, Sendable {
    var page: Int
    var pages: Int
    var perPage: Int
    var total: Int

    init(page: LenientScalar?, pages: LenientScalar?, perPage: LenientScalar?, total: LenientScalar?) throws(FeedError) {
        self.page = try Self.required("page", page)
        self.pages = try Self.required("pages", pages)
        self.perPage = try Self.required("perpage", perPage)
        self.total = try Self.optional("total", total)
    }

    private static func required(_ name: String, _ raw: LenientScalar?) throws(FeedError) -> Int {
        guard let raw, raw != .null else { throw .malformed("missing \"\(name)\" in \"photos\"") }
        return try validated(name, raw)
    }

    /// Missing, null and blank all read as 0.
    private static func optional(_ name: String, _ raw: LenientScalar?) throws(FeedError) -> Int {
        guard let raw, !raw.isBlank else { return 0 }
        return try validated(name, raw)
    }

    private static func validated(_ name: String, _ raw: LenientScalar) throws(FeedError) -> Int {
        guard let value = raw.integer else {
            throw .malformed("\"\(name)\" is not a whole number: \(raw.shown)")
        }
        guard value >= 0 else { throw .malformed("\"\(name)\" is \(value)") }
        return value
    }
}
