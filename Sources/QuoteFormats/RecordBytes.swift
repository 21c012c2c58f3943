import QuoteBase
import QuoteModels
import QuoteText

/// What the line-based readers (fortune, text, CSV) share: a record's bytes made text, and a
/// quote made from it with the checks every upstream text gets.
enum RecordBytes {
    /// UTF-8 when the bytes are; otherwise Latin-1 (fortune datfiles from the 90s are), which
    /// every byte sequence is, so an old file reads rather than being refused.
    static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        let utf8 = bytes.bindMemory(to: UInt8.self)
        if let text = String(validating: utf8, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        for byte in utf8 { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    static func text(_ bytes: some Collection<UInt8>) -> String {
        Array(bytes).withUnsafeBytes { text($0) }
    }

    /// The id a list without ids gives a quote: a hash of its text (as `quotectl import` always
    /// has, so lists imported before keep their ids).
    static func derivedID(_ text: String) -> String {
        String(FNV1a.hash(text).value, radix: 16)
    }

    /// A quote from a record's text and author, checked; its id is `id` or derived from the text,
    /// or from `identity` where the reader keeps more of the text than it once did (line breaks,
    /// indentation, a ` - Name` split off): the form earlier readers stored, so a list read
    /// again keeps its ids, and with them its likes, hides and rows (no shrink guard tripped).
    static func record(text: String, author: String?, category: String? = nil, id: String? = nil,
                       identity: String? = nil, source: String, place: ListPlace) -> ListRecord {
        let checked: String
        do throws(FieldProblem) {
            checked = try RecordText.required(.string(text), field: "text")
        } catch {
            // With ids derived from the text, a refused text is no stored quote's: the list may still remove.
            return .problem(ListProblem(place: place, upstreamID: id, reason: error.reason, couldBeStored: id != nil))
        }
        let named = identity.flatMap { identity in try? RecordText.required(.string(identity), field: "text") } ?? checked
        let upstreamID = id ?? derivedID(named)
        do throws(FieldProblem) {
            let author = try author.flatMap { author throws(FieldProblem) in try RecordText.optional(.string(author), field: "author") }
            let category = try category.flatMap { category throws(FieldProblem) in try RecordText.optional(.string(category), field: "category") }
            let quote = Quote(source: source, upstreamID: upstreamID, text: checked, author: author, category: category,
                              lang: LanguageGuess.guess(checked))
            return .quote(ListEntry(quote, place: place, idIsDerived: id == nil))
        } catch {
            // The text is good: the stored quote it names is kept, as a JSON list's record with an id.
            return .problem(ListProblem(place: place, upstreamID: upstreamID, reason: error.reason))
        }
    }

    /// A record past the cap; `couldBeStored` false where ids derive from the text (such a record
    /// is no stored quote's, so the list may still remove what it dropped).
    static func tooLong(_ bytes: Int, place: ListPlace, couldBeStored: Bool = false) -> ListRecord {
        .problem(ListProblem(place: place, upstreamID: nil,
                             reason: tr("longer than \(LineSplitter.defaultMaximumLineBytes >> 20) MiB (\(bytes) bytes)"),
                             couldBeStored: couldBeStored))
    }
}
