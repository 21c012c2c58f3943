import QuoteBase
import QuoteModels
import QuoteText

/// A JSON list read by field mapping (`fields = text:q, author:a`): which member of an item holds
/// each field. A field not named is the member of its own name (`text`, `author`, `category`);
/// the id is read only where `id:` is named, else derived from the text, as a fortune file's.
struct FieldMapping: Sendable {
    /// Where one field is in an item: a member's name, or a JSON Pointer inside the item.
    struct Member: Sendable {
        let field: ListFormat.Field
        let name: String
        let pointer: JSONPointer?

        init(_ field: ListFormat.Field, _ name: String) {
            self.field = field
            self.name = name
            self.pointer = name.hasPrefix("/") ? try? JSONPointer(name) : nil
        }

        func value(in item: JSONValue) -> JSONValue? {
            if let pointer { return pointer.resolve(in: item) }
            return item[name]
        }

        /// A problem about `"q"` says `"q" (text)`: the member the list has, and what it was mapped to.
        func naming(_ problem: FieldProblem) -> FieldProblem {
            guard name != field.rawValue else { return problem }
            return FieldProblem(reason: problem.reason.replacing("\"\(name)\"", with: "\"\(name)\" (\(field.rawValue))", maxReplacements: 1))
        }

        func text(in item: JSONValue, required: Bool) throws(FieldProblem) -> String? {
            do throws(FieldProblem) {
                return required ? try RecordText.required(value(in: item), field: name) : try RecordText.optional(value(in: item), field: name)
            } catch {
                throw naming(error)
            }
        }

        /// A category is a string, or an array of strings joined with ", " (quotable's tags).
        func category(in item: JSONValue) throws(FieldProblem) -> String? {
            guard let tags = value(in: item)?.array else { return try text(in: item, required: false) }
            var names: [String] = []
            for tag in tags {
                guard tag.string != nil else {
                    throw naming(FieldProblem(reason: tr("\"\(name)\" must be a string or an array of strings, found an array holding \(tag.kindName)")))
                }
                do throws(FieldProblem) {
                    if let tag = try RecordText.optional(tag, field: name) { names.append(tag) }
                } catch {
                    throw naming(error)
                }
            }
            guard !names.isEmpty else { return nil }
            do throws(FieldProblem) {
                return try RecordText.optional(.string(names.joined(separator: ", ")), field: name)
            } catch {
                throw naming(error)
            }
        }
    }

    let id: Member?
    let text: Member
    let author: Member
    let category: Member

    init(_ fields: [ListFormat.Field: String]) {
        id = fields[.id].map { Member(.id, $0) }
        text = Member(.text, fields[.text] ?? "text")
        author = Member(.author, fields[.author] ?? "author")
        category = Member(.category, fields[.category] ?? "category")
    }

    /// The quote in `item`, and whether its id was derived from its text.
    func quote(from item: JSONValue, source: String) -> Result<(Quote, derived: Bool), CustomList.RecordProblem> {
        guard item.object != nil else {
            return .failure(CustomList.RecordProblem(id: nil, reason: tr("expected an object, found \(item.kindName)")))
        }
        var upstreamID: String?
        if let id {
            let label = id.name == "id" ? "\"id\"" : "\"\(id.name)\" (id)"
            guard let value = id.value(in: item), !value.isNull else {
                return .failure(CustomList.RecordProblem(id: nil, reason: tr("missing \(label)")))
            }
            guard let read = CustomList.upstreamID(value) else {
                return .failure(CustomList.RecordProblem(id: nil, reason: tr("\(label) must be an integer or a short string, found \(value.kindName)")))
            }
            upstreamID = read
        }
        let text: String
        do throws(FieldProblem) {
            text = try self.text.text(in: item, required: true) ?? ""
        } catch {
            // With ids derived from the text, a refused text is no stored quote's: the list may still remove.
            return .failure(CustomList.RecordProblem(id: upstreamID, reason: error.reason, couldBeStored: upstreamID != nil))
        }
        do throws(FieldProblem) {
            // The same derivation as a fortune file's, so a list's ids do not depend on its format.
            let derived = upstreamID == nil
            upstreamID = upstreamID ?? RecordBytes.derivedID(text)
            let author = try self.author.text(in: item, required: false)
            let category = try self.category.category(in: item)
            return .success((Quote(source: source, upstreamID: upstreamID ?? "", text: text, author: author, category: category,
                                   lang: LanguageGuess.guess(text)), derived))
        } catch {
            return .failure(CustomList.RecordProblem(id: upstreamID, reason: error.reason))
        }
    }
}
