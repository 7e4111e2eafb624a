/// SHA-256, fed chunk by chunk as a download streams in: the digest is ready when the last byte is
/// written, so a file is never read again to hash it. libcrypto's (OpenSSL, already there beside
/// libcurl) when it loads: hashing in Swift cost more CPU than the rest of a download together.
/// Use one value once; copies share libcrypto's context.
struct SHA256 {
    private var software: SoftwareSHA256?
    private let library: LibcryptoSHA256?

    init() { self.init(library: LibcryptoSHA256()) }

    /// The Swift implementation, whatever is installed (for tests).
    static func inSwift() -> SHA256 { SHA256(library: nil) }

    private init(library: LibcryptoSHA256?) {
        (self.library, software) = (library, library == nil ? SoftwareSHA256() : nil)
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        if let library { library.update(bytes) } else { software?.update(bytes) }
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest as 64 lower-case hex digits.
    mutating func finish() -> String {
        library?.finish() ?? software?.finish() ?? ""
    }
}
