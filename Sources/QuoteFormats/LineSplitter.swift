import Glibc

/// The lines of a body as its bytes arrive, found with memchr (a per-byte Swift loop is the
/// slow part of a big list): each line handed over without its LF or CRLF, with its 1-based
/// number. Only the line being read is held, and never more than `maximumLineBytes` of it.
struct LineSplitter: Sendable {
    enum Line {
        case text(UnsafeRawBufferPointer)
        /// The line was longer than the cap: its bytes were dropped as they came.
        case tooLong(bytes: Int)
    }

    static let defaultMaximumLineBytes = 1 << 20

    let maximumLineBytes: Int
    private var held: [UInt8] = []
    private var droppedBytes = 0
    private var sawBytes = false
    private var bom = ByteOrderMark()
    /// The number of the line being read.
    private(set) var number = 1

    init(maximumLineBytes: Int = defaultMaximumLineBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// This splitter, moved out for a reader to work on while it changes itself (`self.lines` cannot
    /// be passed in-out then): a copy would share the held line, and its first append copy it whole.
    mutating func takeOut() -> LineSplitter {
        let moved = self
        self = LineSplitter(maximumLineBytes: maximumLineBytes)
        return moved
    }

    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Line, Int) throws -> Void) rethrows {
        var bom = self.bom
        defer { self.bom = bom }
        try bom.strip(chunk) { bytes in try split(bytes, body) }
    }

    /// The body has ended: a last line without a line end is still a line.
    mutating func finish(_ body: (Line, Int) throws -> Void) rethrows {
        var bom = self.bom
        defer { self.bom = bom }
        try bom.finish { bytes in try split(bytes, body) }
        if sawBytes { try emit(body) }
    }

    private mutating func split(_ bytes: UnsafeRawBufferPointer, _ body: (Line, Int) throws -> Void) rethrows {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else {
                hold(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return
            }
            let end = base.distance(to: UnsafeRawPointer(found))
            if held.isEmpty, droppedBytes == 0, end - start <= maximumLineBytes {
                // The whole line is in this chunk: handed over without a copy.
                try body(.text(Self.withoutCR(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))), number)
            } else {
                hold(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                try emit(body)
            }
            sawBytes = false
            number += 1
            start = end + 1
        }
    }

    private mutating func hold(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        sawBytes = true
        if droppedBytes > 0 || held.count + bytes.count > maximumLineBytes {
            droppedBytes += held.count + bytes.count
            held.removeAll()
        } else {
            held.append(contentsOf: bytes)
        }
    }

    private mutating func emit(_ body: (Line, Int) throws -> Void) rethrows {
        defer {
            held.removeAll(keepingCapacity: true)
            droppedBytes = 0
        }
        if droppedBytes > 0 { return try body(.tooLong(bytes: droppedBytes), number) }
        try held.withUnsafeBytes { try body(.text(Self.withoutCR($0)), number) }
    }

    private static func withoutCR(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        line.last == 0x0D ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
    }
}
