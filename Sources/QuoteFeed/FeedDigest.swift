import CCrypto

/// SHA-256, fed piece by piece (a feed file is hashed as it is written, a list's body as it
/// arrives), through OpenSSL's libcrypto: it uses the processor's SHA instructions where there
/// are some, where libsodium's portable SHA-256 is a visible share of a big resync's CPU
/// (docs/benchmarks.md).
///
/// libcrypto can fail where libsodium could not: an OpenSSL configuration (OPENSSL_CONF) that
/// leaves no provider of SHA-256. Then `finish` gives nil, never a digest of nothing — a
/// digest compared with the last one applied must not make a changed body look unchanged.
///
/// Owned as QuoteSystem's `FileDescriptor` owns its descriptor: noncopyable, the context kept
/// as its address (a handle, like a descriptor's number), freed with the digest, and reached
/// only through mutating methods — whoever uses it holds it exclusively, so it is Sendable as
/// checked, with no lock.
public struct FeedDigest: ~Copyable, Sendable {
    /// The address of libcrypto's EVP_MD_CTX; 0 when it could not be allocated.
    private let context: UInt
    private var failed: Bool

    public init() {
        let allocated = EVP_MD_CTX_new()
        context = UInt(bitPattern: allocated)
        failed = allocated.map { EVP_DigestInit_ex($0, EVP_sha256(), nil) != 1 } ?? true
    }

    deinit { EVP_MD_CTX_free(OpaquePointer(bitPattern: context)) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !failed, let handle = OpaquePointer(bitPattern: context), let base = bytes.baseAddress, !bytes.isEmpty else { return }
        failed = EVP_DigestUpdate(handle, base, bytes.count) != 1
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far, as 64 lower-case hex digits, or nil when libcrypto
    /// could not hash; the digest starts again, empty, after it.
    public mutating func finish() -> String? {
        guard let handle = OpaquePointer(bitPattern: context) else { return nil }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = !failed && EVP_DigestFinal_ex(handle, &digest, &length) == 1 && length == 32
        failed = EVP_DigestInit_ex(handle, EVP_sha256(), nil) != 1
        return done ? Hex.encode(Array(digest.prefix(32))) : nil
    }

    public static func hex(_ bytes: [UInt8]) -> String? {
        var digest = FeedDigest()
        digest.update(bytes)
        return digest.finish()
    }
}
