/// Reads a date's text byte by byte. Only ASCII digits make a number, so no sign, space or other
/// script's digit (Arabic-Indic, full-width) passes where the formats want digits.
struct DateCursor {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
    }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
        index += 1
        return true
    }

    /// Exactly `count` digits.
    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    /// One digit or more, their value unread (a fraction of a second).
    mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return index > start
    }

    mutating func sign() -> Int? {
        if take("+") { return 1 }
        if take("-") { return -1 }
        return nil
    }

    /// A whole word of digits, as many as `allowed` says (at most a few: no overflow), or nil.
    static func number(_ word: some StringProtocol, digits allowed: ClosedRange<Int>) -> Int? {
        let count = word.utf8.count
        guard allowed.contains(count) else { return nil }
        var cursor = DateCursor(word.utf8)
        return cursor.digits(count)
    }
}
