import QuoteBase
import QuoteCommandLine
import QuoteModels
import QuoteStore
import QuoteText
import QuoteUserState

/// Which quote `like`, `hide` and `unhide` mean: the ID given (an upstream id as `--json` prints
/// it, or SOURCE:ID as `liked --json` does), else the last quote this user was shown.
enum ChosenQuote {
    static func resolve(_ arguments: Arguments, spec: CommandSpec, context: inout Context, kept lists: [KeptList]) throws -> KeptQuote {
        guard let given = try arguments.positionals(for: spec).first else {
            guard let last = ShownQuotes.last() else {
                throw NoMatch(message: tr("no quote shown yet: run quotectl random (or today) first, or give an ID"))
            }
            return last.kept
        }
        guard let (source, upstreamID) = QuoteKey.parse(given) else {
            throw UsageError(message: tr("'\(shown(given))' is not a quote ID: give the id that --json prints, or SOURCE:ID as liked --json prints it"),
                             command: spec.name)
        }
        var found: [KeptQuote] = []
        // The user's own lists first: a liked or hidden quote may be gone from the store.
        for list in lists {
            let matches = source.map { list.entry(QuoteKey(source: $0, upstreamID: upstreamID)).map { [$0] } ?? [] }
                ?? list.entries(upstreamID: upstreamID)
            for kept in matches where !found.contains(where: { $0.key == kept.key }) { found.append(kept) }
        }
        if found.isEmpty || source == nil {
            let store = try context.store()
            for quote in try store.quotes.quotes(upstreamID: upstreamID, source: source)
            where !found.contains(where: { $0.key == QuoteKey(quote) }) {
                found.append(KeptQuote(quote, time: 0))
            }
            if found.isEmpty { throw NoMatch(message: tr("no quote with ID '\(shown(given))' in the store at \(store.path)")) }
        }
        guard found.count == 1 else {
            let sources = found.map(\.key.source).joined(separator: ", ")
            throw UsageError(message: tr("ID '\(upstreamID)' names quotes of several sources (\(sources)): give SOURCE:\(upstreamID)"),
                             command: spec.name)
        }
        return found[0]
    }

    /// What the user typed, cut short for a one-line message.
    static func shown(_ text: String) -> String {
        let line = TerminalSanitizer.oneLine(text)
        return line.count > 40 ? line.prefix(39) + "…" : line
    }

    /// `"The text" — Author`, on one line and at most 100 columns: what a command says it did.
    static func describe(_ kept: KeptQuote) -> String {
        let text = DisplayWidth.shortened(TerminalSanitizer.oneLine(kept.text), to: 72)
        return "\"\(text)\"" + (kept.author.map { " — " + DisplayWidth.shortened(TerminalSanitizer.oneLine($0), to: 24) } ?? "")
    }
}
