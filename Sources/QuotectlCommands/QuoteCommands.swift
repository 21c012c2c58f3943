import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteText
import QuoteUserState

/// Prints a quote as text, or as one JSON object with `--json`.
func printQuote(_ quote: Quote, json: Bool) {
    if json {
        Output.line(quote.json)
        return
    }
    // On a terminal, wrapped between words to the reading width (display columns: Hangul is 2),
    // unless its writer laid it out (ASCII art, verse): that is printed as written, as fortune does.
    let text = TerminalSanitizer.clean(quote.text)
    if Terminal.isTerminal {
        for line in TextLayout.lines(text, width: Terminal.readingWidth) { Output.line(line) }
    } else {
        Output.line(text)
    }
    var attribution: [String] = []
    if let author = quote.author { attribution.append(author) }
    var context: [String] = []
    if let production = quote.production { context.append(production) }
    if let episode = quote.episode { context.append(tr("episode \(episode)")) }
    if let published = quote.published.flatMap(UTCTimestamp.format) { context.append(tr("published \(published)")) }
    if !context.isEmpty { attribution.append("(" + context.joined(separator: ", ") + ")") }
    if !attribution.isEmpty { Output.line(Style.dim("    — " + TerminalSanitizer.clean(attribution.joined(separator: " ")))) }
}

/// `--source NAME`, checked against the known source names.
func sourceOption(_ arguments: Arguments, _ option: TypedOption<String?>) throws(UsageError) -> String? {
    guard let source = arguments.value(option) else { return nil }
    guard SourceName.isValidFilter(source) else {
        let known = SourceName.fixed + ["custom"]
        throw UsageError(message: tr("unknown source '\(source)' (builtin, happiness, breakingbad, upbit, weather, custom, custom.NAME)")
                         + Suggestion.didYouMean(source, among: known), command: arguments.command)
    }
    return source
}

/// Prints the picked quotes in `layout`, or says on stderr that nothing matched (exit 66).
func answer(_ quotes: [Quote], filter: QuoteFilter, store: Store, layout: QuoteLayout, maxWidth: Int?) -> ExitCode {
    guard !quotes.isEmpty else {
        Output.error(nothingMatches(filter, store: store))
        return .noInput
    }
    printQuotes(quotes, layout: layout, maxWidth: maxWidth)
    return .success
}

/// Prints `quotes` in `layout`: a blank line between plain ones, else a line (or two) each.
func printQuotes(_ quotes: [Quote], layout: QuoteLayout, maxWidth: Int?) {
    for (index, quote) in quotes.enumerated() {
        switch layout {
        case .plain:
            if index > 0 { Output.line("") }
            printQuote(quote, json: false)
        case .json:
            printQuote(quote, json: true)
        default:
            for line in layout.lines(for: quote, maxWidth: maxWidth) { Output.line(line) }
        }
    }
}

/// Why nothing was found, and — when the source has nothing in the store at all — how to get
/// some, as the lists say it (the same exit 66 everywhere).
func nothingMatches(_ filter: QuoteFilter, store: Store) -> String {
    if filter.isEmpty { return tr("the store at \(store.path) holds no quotes (quotectl sync --now fetches some)") }
    let described = describe(filter)
    if let source = filter.source, source != SourceName.builtin,
       (try? store.quotes.count(QuoteFilter(source: source))) == 0 {
        return source == "custom"
            ? tr("no quote matches \(described) (nothing from \(source) in the store yet: quotectl sync --now fetches it)")
            : tr("no quote matches \(described) (nothing from \(source) in the store yet: quotectl sync --now --source \(source) fetches it)")
    }
    return tr("no quote matches \(described)")
}

/// `--max-width N` (with a one-line layout only: a person's quote wraps to the terminal).
func maxWidthOption(_ arguments: Arguments, layout: QuoteLayout) throws(UsageError) -> Int? {
    guard let width = try arguments.value(Options.maxWidth) else { return nil }
    if layout == .plain || layout == .json {
        throw UsageError(message: tr("--max-width needs --oneline or --format"), command: arguments.command)
    }
    return width
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
    if let minLength = filter.minLength { parts.append(tr("--long (more than \(minLength - 1) characters)")) }
    return parts.joined(separator: " ")
}

let randomSpec = CommandSpec(
    name: Subcommand.random.rawValue,
    overview: "Print a random quote from the store, uniformly among those that match. As fortune does, sources may be weighed: 'quotectl random 30% happiness 70% custom.stoics' (sources without a percentage share what is left), and -e weighs every matching source equally.",
    positionals: [Positional("[N%] SOURCE...", optional: true, completion: .sourceName,
                             help: "Pick among these sources, each with the share given (fortune's percentages).")],
    options: [Options.source.option, Options.author.option, Options.category.option, Options.lang.option, Options.character.option,
              Options.production.option, Options.maxLength.option, Options.short, Options.long, Options.count.option, Options.equal,
              Options.unseen, Options.randomLiked, Options.oncePer.option] + Options.quoteOutput
              + [Options.notify, Options.follow, Options.randomEvery.option])

let randomCommand = Command(randomSpec) { arguments, context in
    let request = try RandomRequest(arguments)
    if arguments.has(Options.notify) { return try notifyRandom(request, arguments, &context) }
    let layout = try QuoteLayout.from(arguments, command: "random")
    let maxWidth = try maxWidthOption(arguments, layout: layout)
    if let interval = try followInterval(arguments, Options.randomEvery, command: "random", lines: layout != .plain) {
        guard request.count == 1 else {
            throw UsageError(message: tr("--follow shows one quote at a time: not with --count"), command: "random")
        }
        if request.liked || request.oncePer != nil {
            throw UsageError(message: tr("--follow draws from the store, line after line: not with --liked or --once-per"), command: "random")
        }
        return try followRandom(request, layout: layout, maxWidth: maxWidth, interval: interval, store: context.store())
    }
    // Greeted already in the period: nothing, and success (a greeting says nothing twice).
    if UserStateUse.greetedAlready(in: request.oncePer) { return .success }
    if request.liked {
        let quotes = try UserStateUse.likedDraw(count: request.count)
        printQuotes(quotes, layout: layout, maxWidth: maxWidth)
        UserStateUse.rememberShown(quotes, greeting: request.greets)
        return .success
    }
    let store = try context.store()
    let hidden = UserStateUse.hidden()
    var draw = RandomDraw(store: store, hidden: hidden)
    let quotes = try draw.quotes(for: request)
    if quotes.isEmpty, let message = UserStateUse.everyMatchHidden(request.filter, store: store, hidden: hidden) {
        Output.error(message)
        return .noInput
    }
    let status = answer(quotes, filter: request.filter, store: store, layout: layout, maxWidth: maxWidth)
    if status == .success { UserStateUse.rememberShown(quotes, greeting: request.greets) }
    return status
}

/// `random --notify`: one quote, drawn only once the bus and notify-send are known to be there.
func notifyRandom(_ request: RandomRequest, _ arguments: Arguments, _ context: inout Context) throws -> ExitCode {
    try DesktopNotifier.checkAlone(arguments, command: "random")
    if request.count > 1 { throw UsageError(message: tr("--notify shows one quote: it takes no --count"), command: "random") }
    let notifier: DesktopNotifier
    do { notifier = try DesktopNotifier.locate() } catch { Output.error(error.message); return .unavailable }
    if UserStateUse.greetedAlready(in: request.oncePer) { return .success }
    let quote: Quote
    if request.liked {
        quote = try UserStateUse.likedDraw(count: 1)[0]
    } else {
        let store = try context.store()
        let hidden = UserStateUse.hidden()
        var draw = RandomDraw(store: store, hidden: hidden)
        draw.savesSeen = false
        guard let drawn = try draw.quotes(for: request).first else {
            Output.error(UserStateUse.everyMatchHidden(request.filter, store: store, hidden: hidden) ?? nothingMatches(request.filter, store: store))
            return .noInput
        }
        let status = shown(notifier.show(drawn, occasion: .randomQuote), drawn, greeting: request.greets)
        if status == .success { draw.drawnSeen?.save() }
        return status
    }
    return shown(notifier.show(quote, occasion: .randomQuote), quote, greeting: request.greets)
}

/// A notification that was shown is a quote this user saw: what like and hide take without an ID
/// (and, with `random --once-per`, the period's greeting).
func shown(_ status: ExitCode, _ quote: Quote, greeting: Bool = false) -> ExitCode {
    if status == .success { UserStateUse.rememberShown([quote], greeting: greeting) }
    return status
}

/// fortune's "30% happiness 70% custom.stoics": sources with the share of picks each gets.
struct SourceShares {
    var entries: [(source: String, percent: Double?)] = []
    var isEmpty: Bool { entries.isEmpty }

    static func parse(_ words: [String]) throws(UsageError) -> SourceShares {
        var shares = SourceShares()
        var pending: Double?
        for word in words {
            if word.hasSuffix("%") {
                guard pending == nil, let number = Double(word.dropLast()), number.isFinite, number >= 0, number <= 100 else {
                    throw UsageError(message: tr("'\(word)' is not a share: write N% before a source (0% to 100%)"), command: "random")
                }
                pending = number
                continue
            }
            guard SourceName.isValidFilter(word) else {
                throw UsageError(message: tr("unknown source '\(word)'") + Suggestion.didYouMean(word, among: SourceName.fixed + ["custom"]),
                                 command: "random")
            }
            shares.entries.append((word, pending))
            pending = nil
        }
        if pending != nil { throw UsageError(message: tr("a share at the end names no source"), command: "random") }
        // Only the sources named are drawn from: with a share for none of them, nothing would be.
        if !shares.entries.isEmpty, shares.entries.allSatisfy({ $0.percent == 0 }) {
            throw UsageError(message: tr("every share is 0%: give a source more than 0%"), command: "random")
        }
        let total = shares.entries.compactMap(\.percent).reduce(0, +)
        if total > 100.000001 { throw UsageError(message: tr("the shares add up to \(total)%, more than 100%"), command: "random") }
        return shares
    }

    /// Weights per source: the given percentages; what is left shared equally by the listed
    /// sources without one. With no sources listed and `equal`, every source with a match.
    /// `available`: the sources with a match (of those listed, "custom" for every list, when
    /// some are; else of every source).
    func weights(available: Set<String>, equal: Bool) throws -> [(String, Double)] {
        if entries.isEmpty { return available.sorted().map { ($0, 1) } }
        let given = entries.compactMap(\.percent).reduce(0, +)
        let unshared = entries.filter { $0.percent == nil }.count
        var weights: [(String, Double)] = []
        for entry in entries {
            guard available.contains(entry.source) else { throw NoMatch(message: tr("no quote from \(entry.source) matches")) }
            weights.append((entry.source, entry.percent ?? (unshared > 0 ? max(0, 100 - given) / Double(unshared) : 0)))
        }
        return weights.filter { $0.1 > 0 }
    }

    static func draw<G: RandomNumberGenerator>(_ weights: [(String, Double)], using generator: inout G) -> String {
        let total = weights.reduce(0) { $0 + $1.1 }
        var point = Double.random(in: 0..<max(total, .leastNonzeroMagnitude), using: &generator)
        for (source, weight) in weights {
            if point < weight { return source }
            point -= weight
        }
        return weights[weights.count - 1].0
    }
}

let todaySpec = CommandSpec(
    name: Subcommand.today.rawValue,
    overview: "Print the quote of the day: the same all day, another one tomorrow.",
    options: [Options.todaySource.option] + Options.quoteOutput + [Options.notify])

let todayCommand = Command(todaySpec) { arguments, context in
        _ = try arguments.positionals(for: todaySpec)
        let filter = QuoteFilter(source: try sourceOption(arguments, Options.todaySource))
        if arguments.has(Options.notify) { return try notifyToday(filter, arguments, &context) }
        let layout = try QuoteLayout.from(arguments, command: "today")
        let maxWidth = try maxWidthOption(arguments, layout: layout)
        let store = try context.store()
        let hidden = UserStateUse.hidden()
        let quote = try quoteOfTheDay(store, filter: filter, hidden: hidden)
        if quote == nil, let message = UserStateUse.everyMatchHidden(filter, store: store, hidden: hidden) {
            Output.error(message)
            return .noInput
        }
        let status = answer(quote.map { [$0] } ?? [], filter: filter, store: store, layout: layout, maxWidth: maxWidth)
        if status == .success, let quote { UserStateUse.rememberShown([quote]) }
        return status
}

/// The quote of the day for this user: one this user hid gives way to the next of the day, in
/// the same order (every mode that shows the day's quote asks here).
func quoteOfTheDay(_ store: Store, filter: QuoteFilter, hidden: KeptList = UserStateUse.hidden()) throws -> Quote? {
    try store.quotes.today(now: Run.now(), filter: filter) {
        !hidden.isEmpty && hidden.contains(QuoteKey($0))
    }
}

/// `today --notify`: the quote of the day as a notification (what quoted-notify.timer runs).
func notifyToday(_ filter: QuoteFilter, _ arguments: Arguments, _ context: inout Context) throws -> ExitCode {
    try DesktopNotifier.checkAlone(arguments, command: "today")
    let notifier: DesktopNotifier
    do { notifier = try DesktopNotifier.locate() } catch { Output.error(error.message); return .unavailable }
    let store = try context.store()
    let hidden = UserStateUse.hidden()
    guard let quote = try quoteOfTheDay(store, filter: filter, hidden: hidden) else {
        Output.error(UserStateUse.everyMatchHidden(filter, store: store, hidden: hidden) ?? nothingMatches(filter, store: store))
        return .noInput
    }
    return shown(notifier.show(quote, occasion: .quoteOfTheDay), quote)
}

let searchSpec = CommandSpec(
    name: Subcommand.search.rawValue,
    overview: "Search quote texts and authors (full-text, best matches first; words match as prefixes, so 행복 finds 행복은).",
    positionals: [Positional("TEXT...", help: "The words to look for; every word must match. Words in double quotes (\"light ocean\") must stand side by side, as written.")],
    options: [Options.limit.option, Options.json])

let searchCommand = Command(searchSpec, pages: true) { arguments, context in
        guard !arguments.positionals.isEmpty else { throw UsageError(message: tr("missing TEXT"), command: "search") }
        let text = arguments.positionals.joined(separator: " ")
        let limit = try arguments.value(Options.limit)
        let store = try context.store()
        let found = try store.quotes.find(text, limit: limit)
        let results = found.quotes
        if results.isEmpty {
            // The words as typed, cut short: a message is one line, whatever was pasted.
            let shown = text.count > 80 ? text.prefix(79) + "…" : Substring(text)
            Output.error(tr("no quote matches \"\(shown)\""))
            return .noInput
        }
        let json = arguments.has(Options.json)
        for (index, quote) in results.enumerated() {
            if index > 0 && !json { Output.line("") }
            printQuote(quote, json: json)
        }
        // Fewer shown than matched, or unranked: say so (on stderr: stdout carries the quotes only).
        if found.matches > results.count {
            Output.flush()
            if found.ranked {
                Output.standardError("quotectl: " + tr("showing \(results.count) of \(found.matches) matches; --limit N shows more") + "\n")
            } else {
                Output.standardError("quotectl: " + tr("""
                    more than \(QuotePicker.rankingLimit) matches: showing the first \(results.count), \
                    not ranked (add words to narrow the search)
                    """) + "\n")
            }
        }
        return .success
}
