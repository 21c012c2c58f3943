/// A gettext catalog (.mo) checked before glibc is let near it. glibc maps the file and trusts
/// every offset and count in it: a table past the end is a SIGSEGV or SIGBUS, a hash table with no
/// empty slot (or a size that is not prime, whose probe skips slots) a lookup that never ends,
/// and a plural rule that divides by zero a SIGFPE. A catalog is used only when all of that is
/// sound; otherwise the program speaks English.
public enum CatalogFile {
    /// Larger than any catalog of ours by far; a bigger file is not read.
    public static let sizeLimit = 64 << 20

    /// Why `bytes` must not be handed to gettext, or nil when it may.
    public static func refusal(of bytes: [UInt8]) -> String? {
        guard bytes.count >= 28 else { return "shorter than a catalog's header (\(bytes.count) bytes)" }
        let reader: WordReader
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0xde, 0x12, 0x04, 0x95): reader = WordReader(bytes: bytes, bigEndian: false)
        case (0x95, 0x04, 0x12, 0xde): reader = WordReader(bytes: bytes, bigEndian: true)
        default: return "not a gettext catalog (its magic number is wrong)"
        }
        // Any other revision adds system-dependent string tables (msgfmt writes them only for C
        // format macros such as <PRIu64>), which glibc reads unchecked: only revision 0 is taken.
        guard reader.word(at: 4) == 0 else { return "a catalog revision this program does not read (\(reader.word(at: 4)))" }
        let count = reader.word(at: 8), originals = reader.word(at: 12), translations = reader.word(at: 16)
        let hashSize = reader.word(at: 20), hashOffset = reader.word(at: 24)
        for table in [originals, translations] {
            guard fits(table, count, 8, in: bytes.count) else { return "a string table runs past the end of the file" }
        }
        for index in 0..<count where !reader.holdsString(described: originals + 8 * index)
            || !reader.holdsString(described: translations + 8 * index) {
            return "string \(index) runs past the end of the file or has no terminating NUL"
        }
        if let problem = hashProblem(reader, size: hashSize, offset: hashOffset, strings: count) { return problem }
        for header in headers(reader, count: count, originals: originals, translations: translations) {
            if let problem = charsetProblem(header) ?? PluralRule.refusal(ofHeader: header) { return problem }
        }
        return nil
    }

    /// Longer than any character set's name; glibc copies the name onto its stack (alloca).
    static let charsetLimit = 64

    /// What is wrong with the header's `charset=` value, as glibc reads it (up to a blank, ';' or
    /// a line's end).
    private static func charsetProblem(_ header: [UInt8]) -> String? {
        guard let start = header.end(ofFirst: Array("charset=".utf8)) else { return nil }
        let end = header[start...].firstIndex { [0x20, 0x09, 0x0A, UInt8(ascii: ";"), 0].contains($0) } ?? header.endIndex
        return end - start > charsetLimit ? "its charset name is longer than \(charsetLimit) bytes" : nil
    }

    /// Whether `count` entries of `width` bytes from `offset` lie inside a file of `size` bytes.
    private static func fits(_ offset: Int, _ count: Int, _ width: Int, in size: Int) -> Bool {
        let (length, over) = count.multipliedReportingOverflow(by: width)
        let (end, past) = offset.addingReportingOverflow(length)
        return !over && !past && end <= size
    }

    /// What is wrong with the hash table glibc probes (used when it has more than 2 slots).
    private static func hashProblem(_ reader: WordReader, size: Int, offset: Int, strings: Int) -> String? {
        guard size > 2 else { return nil }
        guard fits(offset, size, 4, in: reader.bytes.count) else { return "the hash table runs past the end of the file" }
        guard isPrime(size) else { return "the hash table's size (\(size)) is not prime: a lookup could miss its empty slots" }
        var empty = false
        for slot in 0..<size {
            let entry = reader.word(at: offset + 4 * slot)
            if entry == 0 { empty = true } else if entry > strings { return "the hash table names a string that is not there" }
        }
        return empty ? nil : "the hash table has no empty slot: a missing message would be looked for forever"
    }

    private static func isPrime(_ number: Int) -> Bool {
        guard number >= 2 else { return false }
        var divisor = 2
        while divisor <= number / divisor {
            if number % divisor == 0 { return false }
            divisor += 1
        }
        return true
    }

    /// What glibc may take for the catalog's header: the translation of every message whose text
    /// is empty (glibc finds "" by comparing the strings, whatever length field an entry claims).
    private static func headers(_ reader: WordReader, count: Int, originals: Int, translations: Int) -> [[UInt8]] {
        (0..<count).compactMap { index in
            guard reader.bytes[reader.word(at: originals + 8 * index + 4)] == 0 else { return nil }
            let length = reader.word(at: translations + 8 * index), start = reader.word(at: translations + 8 * index + 4)
            return Array(reader.bytes[start..<(start + length)])
        }
    }
}

/// The catalog's 32-bit words, in the byte order its magic number says.
private struct WordReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    /// The word at `offset` (inside the file: callers check), as a non-negative Int.
    func word(at offset: Int) -> Int {
        // Four loads, no array: a catalog's check reads some 6,000 words on every run that
        // prints a message (docs/benchmarks.md).
        let b0 = UInt32(bytes[offset]), b1 = UInt32(bytes[offset + 1]), b2 = UInt32(bytes[offset + 2]), b3 = UInt32(bytes[offset + 3])
        return Int(bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0)
    }

    /// Whether the (length, offset) pair at `descriptor` names bytes inside the file that end in
    /// a NUL, as strcmp and glibc's plural walk need.
    func holdsString(described descriptor: Int) -> Bool {
        let length = word(at: descriptor), start = word(at: descriptor + 4)
        let (end, over) = start.addingReportingOverflow(length)
        return !over && end < bytes.count && bytes[end] == 0
    }
}

extension [UInt8] {
    /// The index just past the first `needle` in these bytes, or nil. A plain scan: the standard
    /// library's generic `firstRange(of:)` took most of a catalog's check (docs/benchmarks.md).
    func end(ofFirst needle: [UInt8]) -> Int? {
        guard !needle.isEmpty, count >= needle.count else { return nil }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<start + needle.count].elementsEqual(needle) { return start + needle.count }
        }
        return nil
    }
}
