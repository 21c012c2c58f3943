/// One journal entry in the native protocol's form: `NAME=value\n` per field, or — for a value
/// with a newline in it — the name, a newline, the value's length as 64-bit little-endian, the
/// value and a newline. A datagram is capped at `limit` bytes by cutting the message (at a
/// character's boundary): an entry is never lost for being long, nor ever large.
enum JournalEntry {
    /// Every datagram's cap: far under the socket's buffer, far over any line quoted logs.
    static let limit = 64 * 1_024
    /// Each field but the message is short by nature; a value past this is cut all the same.
    static let fieldLimit = 4_096

    static func encode(message: String, fields: [(name: String, value: String)], limit: Int = limit) -> [UInt8] {
        var others: [UInt8] = []
        for field in fields { append(field.name, truncated(Array(field.value.utf8), to: fieldLimit), to: &others) }
        // "MESSAGE" + "\n" + 8 length bytes + "\n": the most the message's own framing can take.
        let room = max(0, limit - others.count - 18)
        var entry: [UInt8] = []
        append("MESSAGE", truncated(Array(message.utf8), to: room), to: &entry)
        return entry + others
    }

    private static func append(_ name: String, _ value: [UInt8], to entry: inout [UInt8]) {
        entry += Array(name.utf8)
        if value.contains(10) {
            entry.append(10)
            var length = UInt64(value.count).littleEndian
            withUnsafeBytes(of: &length) { entry += $0 }
            entry += value
        } else {
            entry.append(UInt8(ascii: "="))
            entry += value
        }
        entry.append(10)
    }

    /// At most `count` bytes, never ending inside a UTF-8 sequence.
    static func truncated(_ bytes: [UInt8], to count: Int) -> [UInt8] {
        guard bytes.count > count else { return bytes }
        var end = count
        // Back off continuation bytes (10xxxxxx) to the sequence's start, then drop that start.
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(bytes[..<end])
    }
}
