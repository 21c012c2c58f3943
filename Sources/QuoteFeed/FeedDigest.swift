import CCrypto

/// SHA-256, fed piece by piece (a feed file is hashed as it is written, a list's body as it
/// arrives), through OpenSSL's libcrypto: it uses the processor's SHA instructions where there
/// are some — 2 GB/s here, where libsodium's portable SHA-256 made 0.5 GB/s and was a tenth of
/// the CPU of a 1% resync of a million quotes (docs/benchmarks.md).
///
/// libcrypto can fail where libsodium could not: an OpenSSL configuration (OPENSSL_CONF) that
/// leaves no provider of SHA-256. Then `finish` gives nil, never a digest of nothing — a
/// digest compared with the last one applied must not make a changed body look unchanged.
///
/// Noncopyable: it owns libcrypto's digest context, freed with it. `@unchecked Sendable` for
/// that context alone, which no other value shares and only the mutating methods touch, so
/// whoever holds the digest holds the context; moving it to another thread moves both.
public struct FeedDigest: ~Copyable, @unchecked Sendable {
    private let context: OpaquePointer?
    private var failed: Bool

    public init() {
        context = EVP_MD_CTX_new()
        failed = context.map { EVP_DigestInit_ex($0, EVP_sha256(), nil) != 1 } ?? true
    }

    deinit { EVP_MD_CTX_free(context) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !failed, let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        failed = EVP_DigestUpdate(context, base, bytes.count) != 1
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far, as 64 lower-case hex digits, or nil when libcrypto
    /// could not hash; the digest starts again, empty, after it.
    public mutating func finish() -> String? {
        guard let context else { return nil }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = !failed && EVP_DigestFinal_ex(context, &digest, &length) == 1 && length == 32
        failed = EVP_DigestInit_ex(context, EVP_sha256(), nil) != 1
        return done ? Hex.encode(Array(digest.prefix(32))) : nil
    }

    public static func hex(_ bytes: [UInt8]) -> String? {
        var digest = FeedDigest()
        digest.update(bytes)
        return digest.finish()
    }
}
