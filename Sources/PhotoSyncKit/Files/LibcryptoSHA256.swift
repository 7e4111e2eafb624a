import Glibc

/// SHA-256 through libcrypto's EVP interface, loaded with dlopen on first use (as libcurl is, so
/// commands that hash nothing do not pay for loading it). Nil when libcrypto is not there.
final class LibcryptoSHA256 {
    private let context: OpaquePointer

    init?() {
        guard let api = Self.api, let context = api.newContext() else { return nil }
        guard api.initialize(context, api.sha256(), nil) == 1 else {
            api.freeContext(context)
            return nil
        }
        self.context = context
    }

    deinit { Self.api?.freeContext(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = Self.api?.update(context, base, bytes.count)
    }

    /// The digest as 64 lower-case hex digits.
    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = digest.withUnsafeMutableBufferPointer { Self.api?.final(context, $0.baseAddress!, &length) }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// The EVP functions used, resolved once.
    private struct API {
        let newContext: @convention(c) () -> OpaquePointer?
        let freeContext: @convention(c) (OpaquePointer) -> Void
        let sha256: @convention(c) () -> OpaquePointer?
        let initialize: @convention(c) (OpaquePointer, OpaquePointer?, OpaquePointer?) -> Int32
        let update: @convention(c) (OpaquePointer, UnsafeRawPointer, Int) -> Int32
        let final: @convention(c) (OpaquePointer, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt32>) -> Int32
    }

    private static let api: API? = {
        guard let library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(library, name).map { unsafeBitCast($0, to: type) } }
        guard let newContext = symbol("EVP_MD_CTX_new", as: (@convention(c) () -> OpaquePointer?).self),
              let freeContext = symbol("EVP_MD_CTX_free", as: (@convention(c) (OpaquePointer) -> Void).self),
              let sha256 = symbol("EVP_sha256", as: (@convention(c) () -> OpaquePointer?).self),
              let initialize = symbol("EVP_DigestInit_ex", as: (@convention(c) (OpaquePointer, OpaquePointer?, OpaquePointer?) -> Int32).self),
              let update = symbol("EVP_DigestUpdate", as: (@convention(c) (OpaquePointer, UnsafeRawPointer, Int) -> Int32).self),
              let final = symbol("EVP_DigestFinal_ex",
                                 as: (@convention(c) (OpaquePointer, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt32>) -> Int32).self)
        else { return nil }
        return API(newContext: newContext, freeContext: freeContext, sha256: sha256, initialize: initialize, update: update, final: final)
    }()
}
