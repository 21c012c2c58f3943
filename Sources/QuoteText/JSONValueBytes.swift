/// The bytes of one value that is read whole once it has ended (a list's element, a member's
/// name), as the tokenizer follows it through the chunks: read where they lie when the value
/// begins and ends in one chunk (the common case: no copy), else gathered — at most `limit` of
/// them, so that a longer value is only measured, never held.
struct JSONValueBytes: Sendable {
    let limit: Int
    private var held: [UInt8] = []
    /// Where the value began in the current chunk; nil: in an earlier one.
    private var start: Int?
    /// The value's bytes in the chunks before the current one.
    private var earlier = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// The value begins at `index` of the current chunk.
    mutating func begin(at index: Int) {
        start = index
        earlier = 0
        release()
    }

    /// The value's length when it ends at `end` of the current chunk.
    func length(endingAt end: Int) -> Int {
        earlier + end - (start ?? 0)
    }

    /// The chunk `bytes` ends with the value still open: its part is kept, unless the value is
    /// already longer than `limit`.
    mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
        let from = start ?? 0
        earlier += bytes.count - from
        start = nil
        guard earlier <= limit else {
            held.removeAll()
            return
        }
        held.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from...]))
    }

    /// Calls `body` with the whole value, which ends at `end` of the current chunk and is no
    /// longer than `limit`.
    mutating func read<Output, Failure: Error>(endingAt end: Int, of bytes: UnsafeBufferPointer<UInt8>,
                                               _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Output) throws(Failure) -> Output {
        if let start { return try body(UnsafeBufferPointer(rebasing: bytes[start..<end])) }
        held.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<end]))
        defer { release() }
        return try held.withUnsafeBufferPointer { buffer throws(Failure) in try body(buffer) }
    }

    /// Lets go of what was gathered, keeping room for the next value unless it was a large one.
    private mutating func release() {
        if !held.isEmpty { held.removeAll(keepingCapacity: held.capacity <= 1 << 20) }
    }
}
