import QuoteBase
import QuoteText
import Glibc

/// Why one field of a record was refused.
public struct FieldProblem: Error, Equatable, Sendable {
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// The checks every upstream text field gets.
public enum RecordText {
    /// A required text: present, a valid UTF-8 string, not blank, at most 10,000 characters.
    public static func required(_ value: JSONValue?, field: String) throws(FieldProblem) -> String {
        guard let value, !value.isNull else { throw FieldProblem(reason: tr("missing \"\(field)\"")) }
        guard let trimmed = try optional(value, field: field) else {
            throw FieldProblem(reason: tr("\"\(field)\" is empty"))
        }
        return trimmed
    }

    /// An optional text: absent, null or blank is nil; anything but a valid string is a problem.
    public static func optional(_ value: JSONValue?, field: String) throws(FieldProblem) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.string else {
            throw FieldProblem(reason: tr("\"\(field)\" must be a string, found \(value.kindName)"))
        }
        // SQLite's text functions (length(), the CHECK on a quote's length, full-text search) stop
        // at a NUL: such a text cannot be kept faithfully, so its record is refused, never cut short.
        if containsNUL(text) { throw FieldProblem(reason: tr("\"\(field)\" contains a NUL character (U+0000)")) }
        let trimmed = trim(text)
        // Bytes bound code points from above: most texts are decided without counting.
        if trimmed.utf8.count > QuoteLength.maximumLength, QuoteLength.length(trimmed) > QuoteLength.maximumLength {
            throw FieldProblem(reason: tr("\"\(field)\" is longer than \(QuoteLength.maximumLength) characters"))
        }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// An optional field that must be valid when present: `.some(nil)` when absent or
    /// blank, nil when invalid (so `guard let` reads as "skip the record").
    public static func validOptional(_ value: JSONValue?, field: String) -> String?? {
        do {
            return .some(try optional(value, field: field))
        } catch {
            return .none
        }
    }

    /// memchr over the text's bytes: `utf8.contains(0)` goes through generic code, a visible
    /// share of a big sync's profile (docs/benchmarks.md).
    static func containsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }

    /// Without the white space at its ends; a text of several lines keeps its first line's
    /// indentation, which lines it up with the lines below (ASCII art, verse, a fortune as written).
    static func trim(_ text: String) -> String {
        // Most texts need no trimming: decide from the first and last byte alone.
        if let first = text.utf8.first, let last = text.utf8.last,
           first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
            return text
        }
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        guard text[first...last].contains(where: \.isNewline) else { return String(text[first...last]) }
        let lineStart = text[..<first].lastIndex(where: \.isNewline).map { text.index(after: $0) } ?? text.startIndex
        return String(text[lineStart...last])
    }
}
