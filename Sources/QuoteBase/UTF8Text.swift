extension String {
    /// The text of `bytes` when they are well-formed UTF-8, else nil (a truncated or overlong
    /// sequence, a surrogate, a byte no UTF-8 has) — what `String(validating: bytes, as: UTF8.self)`
    /// answers, without its price: that initialiser is generic over the encoding and, not
    /// specialised outside the standard library, looked up generic metadata at run time on every
    /// call (a tenth of the CPU of decoding a big list: a lookup per string). `String(decoding:as:
    /// UTF8.self)` is specialised; it repairs what is not UTF-8, and a repair shows as text whose
    /// bytes differ from the input's.
    public static func validatingUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count else { return nil }
        // Plain ASCII cannot have been repaired; anything else is compared byte for byte.
        guard bytes.contains(where: { $0 >= 0x80 }) else { return text }
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// The same for an array of bytes.
    public static func validatingUTF8(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { validatingUTF8($0) }
    }
}

public enum UTF8Position {
    /// Where the first byte that is not well-formed UTF-8 lies: its offset, line and column (both
    /// from 1; the column counts bytes, as a byte is what is wrong), or nil when all of it is UTF-8.
    public static func firstInvalid(in bytes: [UInt8]) -> (offset: Int, line: Int, column: Int)? {
        let repaired = String(decoding: bytes, as: UTF8.self).utf8
        var offset = 0
        var line = 1, lineStart = 0
        for byte in repaired {
            guard offset < bytes.count, bytes[offset] == byte else { break }
            if byte == 0x0A {
                line += 1
                lineStart = offset + 1
            }
            offset += 1
        }
        guard offset < bytes.count || repaired.count != bytes.count else { return nil }
        return (offset, line, offset - lineStart + 1)
    }
}
