import CCrypto

/// SHA-256, fed piece by piece (a feed file is hashed as it is written, a list's body as it
/// arrives), through OpenSSL's libcrypto: it uses the processor's SHA instructions where there
/// are some — 2 GB/s here, where libsodium's portable SHA-256 made 0.5 GB/s and was a tenth of
/// the CPU of a 1% resync of a million quotes (docs/benchmarks.md).
///
/// Noncopyable: it owns libcrypto's digest context, freed with it. `@unchecked Sendable` for
/// that context alone, which no other value shares and only the mutating methods touch, so
/// whoever holds the digest holds the context; moving it to another thread moves both.
public struct FeedDigest: ~Copyable, @unchecked Sendable {
    private let context: OpaquePointer

    public init() {
        // An allocation of a few hundred bytes: failing means the process is out of memory.
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto: EVP_MD_CTX_new failed (out of memory)") }
        self.context = context
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far, as 64 lower-case hex digits; the digest starts
    /// again, empty, after it.
    public mutating func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        return Hex.encode(Array(digest.prefix(Int(length))))
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = FeedDigest()
        digest.update(bytes)
        return digest.finish()
    }
}
