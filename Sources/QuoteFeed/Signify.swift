import CSodium
import QuoteBase

/// signify's key and signature files (OpenBSD signify, Debian's signify-openbsd), so that an
/// administrator makes the hub's key with `signify-openbsd -G -n -p hub.pub -s hub.sec` and
/// checks a manifest with `signify-openbsd -V -p hub.pub -m manifest.json`. Each file is an
/// "untrusted comment:" line and one base64 line; the bytes are the algorithm ("Ed"), then
/// for a secret key the KDF ("BK"), its rounds (0: no passphrase), salt and a checksum, then
/// an 8-byte key number, then the key or signature. Signing and verifying are libsodium's
/// Ed25519 (signify signs the message itself, detached): no cryptography of our own.
public enum Signify {
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public struct SecretKey {
        let keyNumber: [UInt8]
        /// libsodium's 64-byte secret key (seed, then public key), as signify stores it.
        let key: [UInt8]
    }

    public struct PublicKey: Equatable {
        let keyNumber: [UInt8]
        let key: [UInt8]
    }

    /// Reads a secret key file made with `-n` (no passphrase).
    public static func secretKey(file path: String) throws(Failure) -> SecretKey {
        let bytes = try decodeFile(path, expected: 2 + 2 + 4 + 16 + 8 + 8 + 64)
        guard bytes[0..<2] == [0x45, 0x64], bytes[2..<4] == [0x42, 0x4B] else {
            throw Failure(reason: "\(path): not a signify Ed25519 secret key")
        }
        let rounds = bytes[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard rounds == 0 else {
            throw Failure(reason: "\(path): the key has a passphrase; a daemon cannot type it (make one with signify-openbsd -G -n)")
        }
        let key = Array(bytes[40..<104])
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha512_BYTES))
        crypto_hash_sha512(&digest, key, UInt64(key.count))
        guard Array(digest[0..<8]) == Array(bytes[24..<32]) else { throw Failure(reason: "\(path): the key's checksum does not match (damaged?)") }
        return SecretKey(keyNumber: Array(bytes[32..<40]), key: key)
    }

    public static func publicKey(file path: String) throws(Failure) -> PublicKey {
        let bytes = try decodeFile(path, expected: 2 + 8 + 32)
        guard bytes[0..<2] == [0x45, 0x64] else { throw Failure(reason: "\(path): not a signify Ed25519 public key") }
        return PublicKey(keyNumber: Array(bytes[2..<10]), key: Array(bytes[10..<42]))
    }

    /// The signature file's text for `message`.
    public static func sign(_ message: [UInt8], with key: SecretKey, comment: String) -> String {
        _ = Sodium.ready
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        crypto_sign_detached(&signature, nil, message, UInt64(message.count), key.key)
        return "untrusted comment: \(comment)\n" + base64([0x45, 0x64] + key.keyNumber + signature) + "\n"
    }

    /// Checks a signature file's text against `message`.
    public static func verify(_ message: [UInt8], signatureFile text: String, key: PublicKey) throws(Failure) {
        _ = Sodium.ready
        guard let bytes = decode(text), bytes.count == 2 + 8 + 64, bytes[0..<2] == [0x45, 0x64] else {
            throw Failure(reason: "not a signify signature")
        }
        guard Array(bytes[2..<10]) == key.keyNumber else { throw Failure(reason: "signed with another key") }
        let signature = Array(bytes[10..<74])
        guard crypto_sign_verify_detached(signature, message, UInt64(message.count), key.key) == 0 else {
            throw Failure(reason: "signature does not verify")
        }
    }

    private static func decodeFile(_ path: String, expected: Int) throws(Failure) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(path, limit: 4_096)
        } catch {
            throw Failure(reason: "\(path): \(error.reason)")
        }
        guard let decoded = decode(String(decoding: bytes, as: UTF8.self)), decoded.count == expected else {
            throw Failure(reason: "\(path): not a signify key file")
        }
        return decoded
    }

    /// The base64 line after the "untrusted comment:" line.
    static func decode(_ text: String) -> [UInt8]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0].hasPrefix("untrusted comment: ") else { return nil }
        let encoded = Array(lines[1].utf8)
        guard encoded.count <= 1_024 else { return nil }
        var decoded = [UInt8](repeating: 0, count: encoded.count)
        var length = 0
        let result = encoded.withUnsafeBufferPointer { input in
            input.withMemoryRebound(to: CChar.self) { chars in
                sodium_base642bin(&decoded, decoded.count, chars.baseAddress, chars.count, nil, &length, nil,
                                  sodium_base64_VARIANT_ORIGINAL)
            }
        }
        return result == 0 ? Array(decoded[0..<length]) : nil
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let size = (bytes.count + 2) / 3 * 4 + 1
        var text = [CChar](repeating: 0, count: size)
        sodium_bin2base64(&text, size, bytes, bytes.count, sodium_base64_VARIANT_ORIGINAL)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
