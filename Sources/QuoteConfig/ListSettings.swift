import QuoteBase
import QuoteModels
import QuoteText

/// `[source.custom.NAME]`'s keys for how the list is written (`format`, `items`, `fields`, `split`,
/// `author_pattern`, `archive`) into `SourceSettings.listFormat`; each wrong value, and each key
/// that does not apply to the list's format, is an error naming its line.
extension SectionReader {
    /// A list key; false when `entry` is not one of them.
    func applyList(_ entry: INIFile.Entry, in section: String, to format: inout ListFormat, bad: (String) -> ConfigError) throws(ConfigError) -> Bool {
        let value = entry.value
        switch entry.key {
        case "format":
            guard let kind = ListFormat.Kind(rawValue: value) else {
                throw bad(ListFormat.Kind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            format.kind = kind
        case "items":
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw bad(tr("a JSON Pointer such as /results, without control characters"))
            }
            do throws(JSONPointer.Malformed) {
                format.items = try JSONPointer(value).text
            } catch {
                throw self.error(entry.line, tr("items in [\(section)]: \(error)"))
            }
        case "fields":
            do throws(ListFormat.FieldsError) {
                format.fields = try ListFormat.parseFields(value)
            } catch {
                throw self.error(entry.line, tr("fields in [\(section)]: \(error)"))
            }
        case "split":
            guard let split = ListFormat.Split(rawValue: value) else {
                throw bad(tr("\(ListFormat.Split.line.rawValue) or \(ListFormat.Split.paragraph.rawValue)"))
            }
            format.split = split
        case "author_pattern":
            format.authorPattern = try authorPattern(entry, in: section)
        case "archive":
            guard let flag = ConfigValue.bool(value) else { throw bad(ConfigValue.boolNames) }
            format.archive = flag
        default:
            return false
        }
        return true
    }

    /// A pattern glibc compiles, with a group for the author.
    private func authorPattern(_ entry: INIFile.Entry, in section: String) throws(ConfigError) -> String {
        do throws(AuthorPattern.Invalid) {
            _ = try AuthorPattern(entry.value)
        } catch {
            throw self.error(entry.line, error.message(for: tr("author_pattern in [\(section)]")))
        }
        return entry.value
    }

    /// Each list key the section sets must apply to its format (read whole first: `format` may
    /// come last); each one that does not is a problem of its line.
    func checkListKeys(_ section: INIFile.Section, _ format: ListFormat) {
        for entry in section.entries {
            guard let formats = ListFormat.keyFormats[entry.key], !formats.contains(format.kind) else { continue }
            let names = ListFormat.Kind.allCases.filter(formats.contains).map(\.rawValue)
            problems.add(error(entry.line, tr("\(entry.key) in [\(section.name)] applies only to format = \(names.joined(separator: ", ")) (this list's format is \(format.kind.rawValue))")))
        }
    }
}
