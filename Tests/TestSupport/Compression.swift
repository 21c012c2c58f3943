/// Compressed bodies for hostile-server tests, built by hand (no zlib here): a
/// correct gzip of small text, and "bombs" that inflate enormous runs of one byte.
public enum Compression {
    /// `bytes` as a valid gzip member (stored, i.e. uncompressed, deflate blocks).
    public static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        out += storedBlocks(bytes)
        out += littleEndian(crc32(bytes)) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
        return out
    }

    /// A gzip member that inflates to about `inflatedBytes` bytes of "[" followed by spaces,
    /// at about 1:160 (fixed-Huffman copies of 258 bytes). Its trailer is not checked by a
    /// client that stops in time, so it carries none: a client that reads to the end fails.
    public static func gzipBomb(inflatedBytes: Int) -> [UInt8] {
        [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + repeatedRun(inflatedBytes)
    }

    /// A bomb of a format: `prefix` (the start of a list, as it is) and then about `inflatedBytes`
    /// spaces, at about 1:160 on the wire. No trailer, as for `gzipBomb`.
    public static func gzipBomb(prefix: [UInt8], inflatedBytes: Int) -> [UInt8] {
        [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF] + storedBlocks(prefix, final: false) + repeatedRun(inflatedBytes)
    }

    /// The same as a zlib stream (Content-Encoding: deflate).
    public static func deflateBomb(inflatedBytes: Int) -> [UInt8] {
        [0x78, 0x9C] + repeatedRun(inflatedBytes)
    }

    /// One fixed-Huffman block: a literal ' ' then copies of (length 258, distance 1).
    /// Each copy is 13 bits, so 8 copies are 13 whole bytes: after the 3-bit block header,
    /// the 8-bit literal and one copy (24 bits, byte-aligned) the stream is that 13-byte
    /// pattern repeated, which builds a GiB bomb in milliseconds.
    private static func repeatedRun(_ count: Int) -> [UInt8] {
        func copy(_ bits: inout BitWriter) {
            bits.writeHuffman(0b1100_0101, length: 8)  // length code 285 = 258 bytes
            bits.writeHuffman(0, length: 5)  // distance code 0 = 1 back
        }
        var head = BitWriter()
        head.write(1, count: 1)  // BFINAL
        head.write(1, count: 2)  // BTYPE = fixed Huffman (LSB first)
        head.writeHuffman(0x30 + 0x20, length: 8)  // literal 0x20: codes 0-143 are 00110000 + value
        copy(&head)
        var produced = 1 + 258
        var pattern = BitWriter()
        for _ in 0..<8 { copy(&pattern) }
        let repeats = max(0, count - produced) / (8 * 258)
        var out = head.flushed
        out.reserveCapacity(out.count + repeats * 13 + 16)
        let block = pattern.flushed
        for _ in 0..<repeats { out += block }
        produced += repeats * 8 * 258
        var tail = BitWriter()
        while produced + 258 <= count {
            copy(&tail)
            produced += 258
        }
        tail.writeHuffman(0, length: 7)  // end of block (code 256)
        return out + tail.flushed
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt32 = 0
        var used = 0

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { push((value >> UInt32(index)) & 1) }
        }

        /// Huffman codes go most significant bit first.
        mutating func writeHuffman(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { push((code >> UInt32(index)) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << UInt32(used)
            used += 1
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }

        var flushed: [UInt8] { used > 0 ? bytes + [UInt8(current)] : bytes }
    }

    private static func storedBlocks(_ bytes: [UInt8], final: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(bytes.count, start + 65_535)
            let length = UInt16(end - start)
            out.append(final && end == bytes.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += bytes[start..<end]
            start = end
        } while start < bytes.count
        return out
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
