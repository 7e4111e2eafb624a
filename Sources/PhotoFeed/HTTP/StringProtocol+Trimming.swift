extension StringProtocol {
    /// Header lines arrive with padding and CRLF; FoundationEssentials has no trimming API.
    func trimmingWhitespace() -> SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
