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

        /// Its key number as 16 hex digits.
        public var number: String { Hex.encode(keyNumber) }
    }

    public struct PublicKey: Equatable, Sendable {
        let keyNumber: [UInt8]
        let key: [UInt8]

        /// From the base64 line of a public key file (what a manifest's next_keys holds).
        public init?(base64 line: String) {
            guard let bytes = Signify.decodeLine(line), bytes.count == 2 + 8 + 32, bytes[0..<2] == [0x45, 0x64] else { return nil }
            keyNumber = Array(bytes[2..<10])
            key = Array(bytes[10..<42])
        }

        init(keyNumber: [UInt8], key: [UInt8]) {
            self.keyNumber = keyNumber
            self.key = key
        }

        /// The base64 line of its file.
        public var base64: String { Signify.base64([0x45, 0x64] + keyNumber + key) }

        /// Its key number as 16 hex digits: how files and messages name it.
        public var number: String { Hex.encode(keyNumber) }
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

    /// signify's embedded form (`signify -S -e`): the signature file's two lines, then the message.
    /// One file holds both, so a reader fetching it between two publishes gets one whole version.
    public static func embed(_ message: [UInt8], with key: SecretKey, comment: String) -> [UInt8] {
        Array(sign(message, with: key, comment: comment).utf8) + message
    }

    /// The key number an embedded signature names, or nil when the text is not one.
    public static func signer(ofEmbedded bytes: [UInt8]) -> String? {
        guard let (signature, _) = splitEmbedded(bytes) else { return nil }
        return Hex.encode(Array(signature[2..<10]))
    }

    /// Checks an embedded signature with whichever of `keys` it names; the message on success.
    public static func open(embedded bytes: [UInt8], keys: [PublicKey]) throws(Failure) -> [UInt8] {
        _ = Sodium.ready
        guard let (signature, message) = splitEmbedded(bytes) else { throw Failure(reason: "not a signify signature with its message") }
        let number = Array(signature[2..<10])
        guard let key = keys.first(where: { $0.keyNumber == number }) else {
            throw Failure(reason: "signed with key \(Hex.encode(number)), which this spoke does not trust")
        }
        guard crypto_sign_verify_detached(Array(signature[10..<74]), message, UInt64(message.count), key.key) == 0 else {
            throw Failure(reason: "signature does not verify")
        }
        return message
    }

    /// The signature's 74 bytes and the message after its two lines.
    private static func splitEmbedded(_ bytes: [UInt8]) -> (signature: [UInt8], message: [UInt8])? {
        guard let first = bytes.prefix(1_024).firstIndex(of: 0x0A),
              let second = bytes[(first + 1)...].prefix(1_024).firstIndex(of: 0x0A) else { return nil }
        let header = String(decoding: bytes[..<first], as: UTF8.self)
        guard header.hasPrefix("untrusted comment: "),
              let signature = decodeLine(String(decoding: bytes[(first + 1)..<second], as: UTF8.self)),
              signature.count == 2 + 8 + 64, signature[0..<2] == [0x45, 0x64] else { return nil }
        return (signature, Array(bytes[(second + 1)...]))
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
        return decodeLine(String(lines[1]))
    }

    /// One base64 line (at most 1 KiB) decoded.
    static func decodeLine(_ line: String) -> [UInt8]? {
        let encoded = Array(line.utf8)
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
