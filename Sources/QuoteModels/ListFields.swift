import QuoteBase
import QuoteText

/// `fields = text:q, author:a, id:_id, category:tags`: which JSON member (or CSV column) holds
/// each field. Parsed here, once, for the configuration and `quotectl import` alike.
extension ListFormat {
    /// Why a `fields` value was refused: the message names the bad part.
    public struct FieldsError: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The longest `fields` value read.
    public static let maximumFieldsBytes = 4_096

    /// Each part is `field:member` (field one of id, text, author, category); a member starting with
    /// `/` is a JSON Pointer inside the item. A field named twice, a member named for two fields,
    /// an unknown field, an empty part or member are refused: none of them has one meaning.
    public static func parseFields(_ text: String) throws(FieldsError) -> [Field: String] {
        guard text.utf8.count <= maximumFieldsBytes else {
            throw FieldsError(reason: tr("longer than \(maximumFieldsBytes) bytes"))
        }
        guard !text.trimmingASCIIWhitespace().isEmpty else {
            throw FieldsError(reason: tr("names no field: expected field:member, such as text:q, author:a"))
        }
        var fields: [Field: String] = [:]
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let part = raw.trimmingASCIIWhitespace()
            guard !part.isEmpty else { throw FieldsError(reason: tr("an empty part (a comma too many)")) }
            let (field, member) = try fieldAndMember(part)
            if fields[field] != nil { throw FieldsError(reason: tr("\(field.rawValue) is named twice")) }
            if let other = fields.first(where: { $0.value == member })?.key {
                throw FieldsError(reason: tr("\"\(member)\" is named for both \(other.rawValue) and \(field.rawValue)"))
            }
            fields[field] = member
        }
        return fields
    }

    private static func fieldAndMember(_ part: String) throws(FieldsError) -> (Field, String) {
        guard let colon = part.firstIndex(of: ":") else {
            throw FieldsError(reason: tr("\"\(part)\": expected field:member, such as text:q"))
        }
        let name = part[..<colon].trimmingASCIIWhitespace()
        let member = part[part.index(after: colon)...].trimmingASCIIWhitespace()
        guard let field = Field(rawValue: name) else {
            // The fields as a mapping writes them, in every language: values, not words to translate.
            let fields = Field.allCases.map(\.rawValue).joined(separator: ", ")
            throw FieldsError(reason: name.isEmpty ? tr("\"\(part)\": no field named (fields: \(fields))")
                : tr("\"\(part)\": '\(name)' is no field (fields: \(fields))"))
        }
        guard !member.isEmpty else { throw FieldsError(reason: tr("\"\(part)\": no member named for \(name)")) }
        guard !member.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw FieldsError(reason: tr("\"\(part)\": a member's name holds no control characters"))
        }
        if member.hasPrefix("/") {
            do throws(JSONPointer.Malformed) {
                _ = try JSONPointer(member)
            } catch {
                throw FieldsError(reason: "\"\(part)\": \(error)")
            }
        }
        return (field, member)
    }
}
