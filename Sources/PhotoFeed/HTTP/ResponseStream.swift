/// Takes a response body as it arrives instead of holding it in memory: an image download
/// writes it to a temporary file, so memory stays flat whatever the file's size.
///
/// Every chunk comes with the final response's status and headers (known before its first byte),
/// so a receiver can ignore an error page's body and check `Content-Length` or `Content-Type`.
/// A receiver that returns false aborts the transfer, which is then not retried: the receiver
/// knows why it stopped (a full disk, content that is not an image) and says so itself.
public protocol ResponseStream: AnyObject {
    /// A new attempt starts (the first, or a retry after a cut transfer or a 5xx): whatever an
    /// earlier attempt delivered is void.
    func restart()
    func receive(_ chunk: UnsafeRawBufferPointer, status: Int, headers: [String: String]) -> Bool
}
