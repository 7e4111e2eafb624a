/// Rejects bodies that are not UTF-8 up front. `JSONDecoder` only checks the strings it is
/// asked to decode, so invalid bytes in an unread field would otherwise slip through unnoticed,
/// and a garbled title would cost its photo with no hint why. Validation runs at memory speed.
enum UTF8Check {
    static func validate(_ body: [UInt8], _ range: Range<Int>) throws(FeedError) {
        do {
            _ = try UTF8Span(validating: body.span.extracting(range))
        } catch {
            throw .malformed("invalid UTF-8 at byte \(range.lowerBound + error.byteOffsets.lowerBound + 1)")
        }
    }
}
