import QuoteBase
import QuoteCommandLine
import QuoteModels
import QuoteText

/// How `import` reads its file: `--format` and the mapping options, checked as the same keys of a
/// list's section in quoted.conf are (the same pointer, mapping and pattern rules, and each applies
/// only to the formats `ListFormat.keyFormats` names).
enum ImportFormat {
    static func from(_ arguments: Arguments) throws(UsageError) -> ListFormat {
        var format = ListFormat(kind: try arguments.value(Options.importFormat))
        if let items = arguments.value(Options.items) {
            do throws(JSONPointer.Malformed) {
                format.items = try JSONPointer(items).text
            } catch {
                throw usage("--items: \(error)")
            }
        }
        if let fields = arguments.value(Options.fields) {
            do throws(ListFormat.FieldsError) {
                format.fields = try ListFormat.parseFields(fields)
            } catch {
                throw usage("--fields: \(error)")
            }
        }
        format.split = try arguments.value(Options.split)
        if let pattern = arguments.value(Options.authorPattern) {
            format.authorPattern = try authorPattern(pattern)
        }
        try checkApplies(arguments, to: format.kind)
        return format
    }

    private static func authorPattern(_ pattern: String) throws(UsageError) -> String {
        do throws(AuthorPattern.Invalid) {
            _ = try AuthorPattern(pattern)
        } catch {
            throw usage(error.message(for: "--author-pattern"))
        }
        return pattern
    }

    /// A mapping option given for a format it does not apply to is a mistake, not silently ignored.
    private static func checkApplies(_ arguments: Arguments, to kind: ListFormat.Kind) throws(UsageError) {
        let options = [(Options.items.option, "items"), (Options.fields.option, "fields"), (Options.split.option, "split"),
                       (Options.authorPattern.option, "author_pattern")]
        for (option, key) in options where arguments.has(option) {
            guard let formats = ListFormat.keyFormats[key], !formats.contains(kind) else { continue }
            let names = ListFormat.Kind.allCases.filter(formats.contains).map(\.rawValue)
            let spelled = "--" + option.long
            throw usage(tr("\(spelled) applies only to --format \(names.joined(separator: ", ")) (not \(kind.rawValue))"))
        }
    }

    private static func usage(_ message: String) -> UsageError {
        UsageError(message: message, command: "import")
    }
}
