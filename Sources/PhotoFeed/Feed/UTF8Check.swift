/// Rejects bodies that are not UTF-8 up front. `JSONDecoder` only checks the strings it is
/// asked to decode, so invalid bytes in an unread field would otherwise slip through unnoticed,
/// and a garbled title would cost its photo with no hint why.
///
/// A feed is nearly all ASCII, so ASCII is passed eight bytes at a time and only the runs of
/// non-ASCII bytes are validated. That is exact: in valid UTF-8 an ASCII byte is never part of a
/// longer sequence, so every maximal run of bytes ≥ 0x80 must be whole sequences on its own.
/// (Validating the whole body byte by byte was a seventh of decoding.)
enum UTF8Check {
    static func validate(_ body: [UInt8], _ range: Range<Int>) throws(FeedError) {
        try body.withUnsafeBufferPointer { bytes throws(FeedError) in
            var position = range.lowerBound
            while position < range.upperBound {
                position = firstNonASCII(in: bytes, from: position, to: range.upperBound)
                var runEnd = position
                while runEnd < range.upperBound, bytes[runEnd] >= 0x80 { runEnd += 1 }
                guard runEnd > position else { return }
                do throws(UTF8.ValidationError) {
                    _ = try UTF8Span(validating: UnsafeBufferPointer(rebasing: bytes[position..<runEnd]).span)
                } catch {
                    throw .malformed("invalid UTF-8 at byte \(position + error.byteOffsets.lowerBound + 1)")
                }
                position = runEnd
            }
        }
    }

    /// The index of the first byte ≥ 0x80 in `start..<end`, or `end`.
    private static func firstNonASCII(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var position = start
        if let base = bytes.baseAddress {
            while position + 8 <= end,
                UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                position += 8
            }
        }
        while position < end, bytes[position] < 0x80 { position += 1 }
        return position
    }
}
