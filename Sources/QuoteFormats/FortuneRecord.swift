/// A fortune record's text and author from its bytes, without making a String of each line:
/// what `FortuneReader.quote` does on Strings, for a record that is all ASCII (most are, and a
/// 1,000,000-record file spends its time here). Anything else takes the String path, whose
/// idea of white space is Unicode's.
enum FortuneRecord {
    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), percent = UInt8(ascii: "%")

    /// nil when the record is not ASCII; `.some(nil)` when it holds no text.
    static func ascii(_ record: [UInt8]) -> (String, String?)?? {
        record.withUnsafeBufferPointer { bytes -> (String, String?)?? in
            var lines: [Range<Int>] = []
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                guard byte == 0x0A else { continue }
                // Trailing blanks go; the leading ones are the record's layout (and tell an attribution line).
                var end = index
                while end > start, bytes[end - 1] == space || bytes[end - 1] == tab || bytes[end - 1] == 0x0D { end -= 1 }
                lines.append(start..<end)
                start = index + 1
            }
            func blank(_ line: Range<Int>) -> Bool { line.allSatisfy { isWhitespace(bytes[$0]) } }
            // The record's lines are lines[first..<end]: blank lines at its ends are passed over by
            // moving the bounds, never removed from the front (which moves every line after it).
            var first = 0, end = lines.count
            while first < end, blank(lines[first]) { first += 1 }
            while end > first, blank(lines[end - 1]) { end -= 1 }
            var author: String?
            if end > first, let name = attribution(bytes, lines[end - 1]) {
                author = name
                end -= 1
                while end > first, blank(lines[end - 1]) { end -= 1 }
            }
            // The lines as written, each after a line break but the first.
            var text: [UInt8] = []
            for (number, line) in lines[first..<end].enumerated() {
                if number > 0 { text.append(0x0A) }
                if blank(line) { continue }
                if line.count == 2, bytes[line.lowerBound] == space, bytes[line.lowerBound + 1] == percent {
                    text.append(percent)
                    continue
                }
                text.append(contentsOf: bytes[line])
            }
            return .some(text.isEmpty ? nil : (String(decoding: text, as: UTF8.self), author))
        }
    }

    /// `\t\t-- Mark Twain`: an indented dash (ASCII: `--` or `-`), then the author, whose name
    /// holds a letter or a digit (`   ----------` in ASCII art is no author).
    private static func attribution(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> String? {
        guard let first = line.first, bytes[first] == space || bytes[first] == tab else { return nil }
        var index = first
        while index < line.upperBound, bytes[index] == space || bytes[index] == tab { index += 1 }
        guard index < line.upperBound, bytes[index] == UInt8(ascii: "-") else { return nil }
        index += 1
        if index < line.upperBound, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < line.upperBound, bytes[index] == space { index += 1 }
        guard index < line.upperBound, bytes[index..<line.upperBound].contains(where: isAlphanumeric) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<line.upperBound]), as: UTF8.self)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || (0x09...0x0D).contains(byte)
    }
}
