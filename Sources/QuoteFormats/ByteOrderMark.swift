/// A UTF-8 byte-order mark at the start of a body (Excel's CSV, Notepad's text) is not text.
/// Its three bytes may arrive split across chunks: the few seen so far are held until decided.
struct ByteOrderMark: Sendable {
    private static let bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
    private var matched = 0
    private var decided = false

    /// Hands `process` the chunk without a leading mark (and, on a mismatch, the bytes held).
    mutating func strip(_ chunk: UnsafeRawBufferPointer, _ process: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard !decided else { return try process(chunk) }
        var index = 0
        while index < chunk.count, matched < 3, chunk[index] == Self.bytes[matched] {
            matched += 1
            index += 1
        }
        if matched == 3 {
            decided = true
            return try process(UnsafeRawBufferPointer(rebasing: chunk[index...]))
        }
        guard index < chunk.count else { return }
        // Not a mark after all: what was held from earlier chunks is text, and so is this chunk.
        decided = true
        try Self.bytes[..<(matched - index)].withUnsafeBytes(process)
        try process(chunk)
    }

    /// The body ended inside what could have been a mark: those bytes are text.
    mutating func finish(_ process: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard !decided else { return }
        decided = true
        try Self.bytes[..<matched].withUnsafeBytes(process)
    }
}
