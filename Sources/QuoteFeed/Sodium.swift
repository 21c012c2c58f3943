import CSodium

/// libsodium, initialised once before its first use (sodium_init is idempotent and thread-safe).
enum Sodium {
    static let ready: Bool = sodium_init() >= 0
}

/// SHA-256 through libsodium, fed piece by piece (a feed file is hashed as it is written).
public struct FeedDigest: Sendable {
    private var state = crypto_hash_sha256_state()

    public init() {
        _ = Sodium.ready
        crypto_hash_sha256_init(&state)
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        crypto_hash_sha256_update(&state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest as 64 lower-case hex digits.
    public mutating func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256_final(&state, &digest)
        return Hex.encode(digest)
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = FeedDigest()
        digest.update(bytes)
        return digest.finish()
    }
}

enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `text` is exactly 64 lower-case hex digits (a SHA-256 as the manifest writes it).
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
