import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore

/// Prints a quote as text, or as one JSON object with `--json`.
func printQuote(_ quote: Quote, json: Bool) {
    if json {
        Output.line(quote.json)
        return
    }
    // On a terminal, wrapped between words to the reading width (display columns: Hangul is 2).
    let text = TerminalSanitizer.clean(quote.text)
    if Terminal.isTerminal {
        for line in DisplayWidth.wrap(text, width: Terminal.readingWidth) { Output.line(line) }
    } else {
        Output.line(text)
    }
    var attribution: [String] = []
    if let author = quote.author { attribution.append(author) }
    var context: [String] = []
    if let production = quote.production { context.append(production) }
    if let episode = quote.episode { context.append("episode \(episode)") }
    if !context.isEmpty { attribution.append("(" + context.joined(separator: ", ") + ")") }
    if !attribution.isEmpty { Output.line(Style.dim("    — " + TerminalSanitizer.clean(attribution.joined(separator: " ")))) }
}

/// `--source NAME`, checked against the known source names.
func sourceOption(_ arguments: Arguments, _ option: Option) throws(UsageError) -> String? {
    guard let source = arguments.value(option) else { return nil }
    guard SourceName.isValidFilter(source) else {
        let known = SourceName.fixed + ["custom"]
        throw UsageError(message: "unknown source '\(source)' (builtin, happiness, breakingbad, upbit, weather, custom, custom.NAME)"
                         + Suggestion.didYouMean(source, among: known), command: arguments.command)
    }
    return source
}

/// Prints the picked quote, or says on stderr that nothing matched (exit 66).
func answer(_ quote: Quote?, filter: QuoteFilter, store: Store, json: Bool) -> ExitCode {
    guard let quote else {
        Output.error(filter.isEmpty ? "the store at \(store.path) holds no quotes" : "no quote matches \(describe(filter))")
        return .noInput
    }
    printQuote(quote, json: json)
    return .success
}

/// A one-line description of a filter for "no quote matches ..." messages.
func describe(_ filter: QuoteFilter) -> String {
    var parts: [String] = []
    if let source = filter.source { parts.append("--source \(source)") }
    if let author = filter.author { parts.append("--author \"\(author)\"") }
    if let category = filter.category { parts.append("--category \"\(category)\"") }
    if let lang = filter.lang { parts.append("--lang \(lang)") }
    if let character = filter.character { parts.append("--character \"\(character)\"") }
    if let production = filter.production { parts.append("--production \"\(production)\"") }
    if let maxLength = filter.maxLength { parts.append("--max-length \(maxLength)") }
    return parts.joined(separator: " ")
}

let randomSpec = CommandSpec(
    name: "random",
    overview: "Print a random quote from the store, uniformly among those that match.",
    options: [Options.source, Options.author, Options.category, Options.lang, Options.character, Options.production,
              Options.maxLength, Options.json])

let randomCommand = Command(randomSpec) { arguments, context in
        _ = try arguments.positionals(for: randomSpec)
        let lang = arguments.value(Options.lang)
        if let lang, lang != "ko", lang != "en" {
            throw UsageError(message: "--lang takes ko or en, not '\(lang)'", command: "random")
        }
        let filter = QuoteFilter(
            source: try sourceOption(arguments, Options.source), author: arguments.value(Options.author),
            category: arguments.value(Options.category), lang: lang, character: arguments.value(Options.character),
            production: arguments.value(Options.production),
            maxLength: try arguments.positiveInt(Options.maxLength))
        let store = try context.store()
        var generator = SystemRandomNumberGenerator()
        let quote = try store.run { try QuotePicker(database: store.database).random(filter, using: &generator) }
        return answer(quote, filter: filter, store: store, json: arguments.has(Options.json))
}

let todaySpec = CommandSpec(
    name: "today",
    overview: "Print the quote of the day: the same all day, another one tomorrow.",
    options: [Options.todaySource, Options.json])

let todayCommand = Command(todaySpec) { arguments, context in
        _ = try arguments.positionals(for: todaySpec)
        let filter = QuoteFilter(source: try sourceOption(arguments, Options.todaySource))
        let store = try context.store()
        let quote = try store.run { try QuotePicker(database: store.database).today(now: UnixTime.now(), filter: filter) }
        return answer(quote, filter: filter, store: store, json: arguments.has(Options.json))
}

let searchSpec = CommandSpec(
    name: "search",
    overview: "Search quote texts and authors (full-text, best matches first; words match as prefixes, so 행복 finds 행복은).",
    positionals: [Positional("TEXT...", help: "The words to look for; every word must match.")],
    options: [Options.limit, Options.json])

let searchCommand = Command(searchSpec, pages: true) { arguments, context in
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing TEXT", command: "search") }
        let text = arguments.positionals.joined(separator: " ")
        let limit = try arguments.positiveInt(Options.limit) ?? 10
        let store = try context.store()
        let results = try store.run { try QuotePicker(database: store.database).search(text, limit: limit) }
        if results.isEmpty {
            Output.error("no quote matches \"\(text)\"")
            return .noInput
        }
        let json = arguments.has(Options.json)
        for (index, quote) in results.enumerated() {
            if index > 0 && !json { Output.line("") }
            printQuote(quote, json: json)
        }
        // Fewer shown than matched: say so (on stderr: what stdout carries stays the quotes).
        if results.count == limit {
            let cap = 100_000
            let total = try store.run { try QuotePicker(database: store.database).searchCount(text, cap: cap) }
            if total > limit {
                Output.flush()
                Output.standardError("quotectl: showing \(limit) of \(total >= cap ? "more than \(cap)" : String(total)) matches; --limit N shows more\n")
            }
        }
        return .success
}
