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
    Output.safeLine(quote.text)
    var attribution: [String] = []
    if let author = quote.author { attribution.append(author) }
    var context: [String] = []
    if let production = quote.production { context.append(production) }
    if let episode = quote.episode { context.append("episode \(episode)") }
    if !context.isEmpty { attribution.append("(" + context.joined(separator: ", ") + ")") }
    if !attribution.isEmpty { Output.safeLine("    — " + attribution.joined(separator: " ")) }
}

/// `--source NAME`, checked against the known source names.
func sourceOption(_ arguments: Arguments, command: String) throws(UsageError) -> String? {
    guard let source = arguments.value("--source") else { return nil }
    guard SourceName.isValidFilter(source) else {
        throw UsageError(message: "unknown source '\(source)' (builtin, happiness, breakingbad, upbit, weather, custom, custom.NAME)",
                         command: command)
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

let randomCommand = Command(
    name: "random",
    overview: "Print a random quote from the store, uniformly among those that match.",
    usage: "random [--source NAME] [--author TEXT] [--category TEXT] [--lang ko|en] [--character NAME] [--production NAME] [--max-length N] [--json]",
    optionHelp: [
        ("--source NAME", "Only quotes from NAME: builtin, happiness, breakingbad, custom.NAME, or custom for every custom list."),
        ("--author TEXT", "Only quotes by this author (any case); if none has that exact name, authors whose name contains these words."),
        ("--category TEXT", "Only quotes in this category (any case)."),
        ("--lang ko|en", "Only Korean or English quotes."),
        ("--character NAME", "Only Breaking Bad quotes spoken by this character."),
        ("--production NAME", "Only quotes from this production (Breaking Bad, Better Call Saul, El Camino)."),
        ("--max-length N", "Only quotes of at most N characters."),
        ("--json", "Print the quote as one JSON object."),
    ],
    options: ["--source", "--author", "--category", "--lang", "--character", "--production", "--max-length"],
    flags: ["--json"],
    run: { arguments, context in
        _ = try arguments.requirePositionals([], command: "random")
        let lang = arguments.value("--lang")
        if let lang, lang != "ko", lang != "en" {
            throw UsageError(message: "--lang takes ko or en, not '\(lang)'", command: "random")
        }
        let filter = QuoteFilter(
            source: try sourceOption(arguments, command: "random"), author: arguments.value("--author"),
            category: arguments.value("--category"), lang: lang, character: arguments.value("--character"),
            production: arguments.value("--production"),
            maxLength: try arguments.positiveInt("--max-length", command: "random"))
        let store = try context.store()
        var generator = SystemRandomNumberGenerator()
        let quote = try store.run { try QuotePicker(database: store.database).random(filter, using: &generator) }
        return answer(quote, filter: filter, store: store, json: arguments.has("--json"))
    })

let todayCommand = Command(
    name: "today",
    overview: "Print the quote of the day: the same all day, another one tomorrow.",
    usage: "today [--source NAME] [--json]",
    optionHelp: [
        ("--source NAME", "The quote of the day from NAME; for happiness, the upstream's own quote of the day once synced."),
        ("--json", "Print the quote as one JSON object."),
    ],
    options: ["--source"],
    flags: ["--json"],
    run: { arguments, context in
        _ = try arguments.requirePositionals([], command: "today")
        let filter = QuoteFilter(source: try sourceOption(arguments, command: "today"))
        let store = try context.store()
        let quote = try store.run { try QuotePicker(database: store.database).today(now: UnixTime.now(), filter: filter) }
        return answer(quote, filter: filter, store: store, json: arguments.has("--json"))
    })

let searchCommand = Command(
    name: "search",
    overview: "Search quote texts and authors (full-text, best matches first; words match as prefixes, so 행복 finds 행복은).",
    usage: "search TEXT [--limit N] [--json]",
    optionHelp: [
        ("TEXT", "The words to look for; every word must match."),
        ("--limit N", "At most N results (default 10)."),
        ("--json", "One JSON object per line."),
    ],
    options: ["--limit"],
    flags: ["--json"],
    run: { arguments, context in
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "missing TEXT", command: "search") }
        let text = arguments.positionals.joined(separator: " ")
        let limit = try arguments.positiveInt("--limit", command: "search") ?? 10
        let store = try context.store()
        let results = try store.run { try QuotePicker(database: store.database).search(text, limit: limit) }
        if results.isEmpty {
            Output.error("no quote matches \"\(text)\"")
            return .noInput
        }
        let json = arguments.has("--json")
        for (index, quote) in results.enumerated() {
            if index > 0 && !json { Output.line("") }
            printQuote(quote, json: json)
        }
        return .success
    })
