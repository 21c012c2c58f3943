import QuoteBase
/// 64-bit FNV-1a: a fast, stable hash (the same on every run and machine, unlike
/// Swift's Hasher) for change detection and migration checksums. Not cryptographic.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func combine<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        value = hash
    }

    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(bytes: $0) }
        combine(bytes: CollectionOfOne(0xFF))  // a separator no UTF-8 text contains
    }

    public mutating func combine(_ text: String?) {
        if let text { combine(text) } else { combine(bytes: CollectionOfOne(0xFE)) }
    }

    public mutating func combine(_ number: Int?) {
        combine(number.map(String.init))
    }

    /// The hash as an SQLite INTEGER (the same 64 bits, signed).
    public var signed: Int { Int(truncatingIfNeeded: value) }

    public var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public static func hash(_ text: String) -> FNV1a {
        var hasher = FNV1a()
        hasher.combine(text)
        return hasher
    }
}
