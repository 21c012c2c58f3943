import QuoteBase
import QuoteConfig
import QuoteFormats
import QuoteModels
import QuoteCommandLine
import QuoteUserState

/// Every option quotectl takes, each declared once: commands list them, parsing, help, the
/// manual and the completions read them, and code asks for them by these names.
enum Options {
    // Global: every command takes these.
    static let db = TypedOption.text("db", "PATH", completion: .file,
                                      help: """
        The store (env QUOTED_DB; default: [store] path of the configuration, /var/lib/quoted/quotes.db if \
        readable, else $XDG_DATA_HOME/quoted/quotes.db).
        """)
    static let config = TypedOption.text("config", "PATH", completion: .file,
                                          help: "The daemon's configuration, for the store and the control socket (env QUOTED_CONFIG).")
    static let help = Option.flag("help", short: "h", help: "Show help information.")
    static let version = Option.flag("version", short: "V", help: "Show the version.")
    static let color = TypedOption.choice("color", default: Style.When.auto,
                                          help: "Colour: auto (on a terminal, unless NO_COLOR is set), always or never.")
    static let noPager = Option.flag("no-pager", help: "Do not send long output through $PAGER (less -FRX) on a terminal.")
    static let noCreate = Option.flag("no-create",
                                      help: """
        Never create a store (not even the starter set at the default place): with none, exit 66. For login \
        scripts and bars.
        """)
    static let global = [db.option, config.option, color.option, noPager, noCreate, version, help]

    // Quotes.
    static let source = TypedOption.text("source", "NAME", completion: .sourceName,
                                          help: """
        Only quotes from NAME: builtin, happiness, breakingbad, custom.NAME, or custom for every custom \
        list.
        """)
    static let author = TypedOption.text("author", "TEXT",
                                          help: """
        Only quotes by this author (any case); if none has that exact name, authors whose name contains \
        these words.
        """)
    static let category = TypedOption.text("category", "TEXT", completion: .asked("categories"), help: "Only quotes in this category (any case).")
    static let lang: TypedOption<Language?> = .choice("lang", help: "Only Korean or English quotes.")
    static let character = TypedOption.text("character", "NAME", completion: .asked("characters"), help: "Only Breaking Bad quotes spoken by this character.")
    static let production = TypedOption.text("production", "NAME", completion: .asked("productions"),
                                              help: "Only quotes from this production (Breaking Bad, Better Call Saul, El Camino).")
    static let maxLength = TypedOption.positiveInt("max-length", help: "Only quotes of at most N characters.")
    static let json = Option.flag("json", help: "Print JSON: one object per line.")
    static let count = TypedOption.positiveInt("count", short: "n", default: 1,
        help: """
        N different quotes (as many as match, if fewer). Not fortune's -n, which sets the short/long \
        threshold: that is --max-length here.
        """)
    static let equal = Option.flag("equal", short: "e",
                                   help: """
        Weigh every matching source equally (fortune's -e): a 10,000-quote list does not drown the \
        built-ins.
        """)
    static let short = Option.flag("short", short: "s", help: "Only short quotes: at most \(shortQuoteLength) characters, or --max-length N.")
    static let long = Option.flag("long", short: "l", help: "Only long quotes: more than \(shortQuoteLength) characters, or than --max-length N.")
    static let unseen = Option.flag("unseen", short: "u",
                                    help: "Each matching quote once before any repeats (per user; remembered under $XDG_STATE_HOME/quoted).")
    static let limit = TypedOption.positiveInt("limit", default: 10, help: { "At most N results (default \($0))." })
    static let quoteFormat = TypedOption.text(
        "format", "TEMPLATE|BAR",
        help: """
        A template such as '{text} — {author}' (fields: \(FieldTemplate<QuoteField>.fieldList); {{ and }} \
        are literal braces), or what a bar reads: waybar (JSON), i3blocks (full and short text), polybar or \
        tmux (one line). One line per quote.
        """)
    static let oneline = Option.flag("oneline", help: "Each quote on one line: its text, a dash, its author.")
    static let maxWidth = TypedOption.positiveInt("max-width",
                                                   help: "With --oneline or --format: at most N columns, shortened at a word with '…'.")
    static let quoteOutput = [json, oneline, quoteFormat.option, maxWidth.option]
    static let statusFormat = TypedOption.text(
        "format", "TEMPLATE|BAR|prometheus",
        help: """
        A line per source through a template such as '{source}: {state}' (fields: \
        \(FieldTemplate<StatusField>.fieldList)), the store's freshness for a bar: waybar (JSON with class \
        fresh, stale or failing), i3blocks, polybar or tmux, or prometheus: the metrics the daemon's \
        [metrics] textfile holds, in Prometheus' text format (with the daemon's own when it answers).
        """)
    static let staleAfterIntervals = TypedOption<Int>(
        { .value("stale-after-intervals", "N", help: $0) }, absent: .value(CheckSettings.defaultStaleAfterIntervals),
        describedAs: String(CheckSettings.defaultStaleAfterIntervals),
        expected: tr("a whole number from \(CheckSettings.staleAfterIntervals.lowerBound) to \(CheckSettings.staleAfterIntervals.upperBound)"),
        help: { "A source whose last success is older than N of its intervals is stale: WARNING (default \($0), or [check] stale_after_intervals)." },
        parse: { text in ConfigValue.count(text).flatMap { CheckSettings.staleAfterIntervals.contains($0) ? $0 : nil } })
    static let criticalAfter = TypedOption<Int>(
        { .value("critical-after", "DURATION", help: $0) }, absent: .value(CheckSettings.defaultCriticalAfter),
        describedAs: ConfigText.duration(CheckSettings.defaultCriticalAfter),
        expected: tr("a duration from \(ConfigText.durations(CheckSettings.criticalAfter)) (such as 30m, 2h)"),
        help: { "A source failing for longer than this is CRITICAL (default \($0), or [check] critical_after)." },
        parse: { text in ConfigValue.duration(text).flatMap { CheckSettings.criticalAfter.contains($0) ? $0 : nil } })
    static let todaySource = TypedOption.text("source", "NAME", completion: .sourceName,
                                               help: "The quote of the day from NAME; for happiness, the upstream's own quote of the day once synced.")
    static let notify = Option.flag("notify",
                                    help: """
        Show the quote as a desktop notification (through notify-send, package libnotify-bin) instead of \
        printing it. Needs the desktop's session bus; exit 69 when there is none or no notification server \
        answers within 5 seconds.
        """)

    // Lists.
    static let quoteCurrency: TypedOption<QuoteCurrency?> = .choice("quote", help: "Only pairs quoted in this currency.")
    static let warning = Option.flag("warning", help: "Only pairs under an investment warning or a caution.")

    // The store.
    static let name = TypedOption.requiredText("name", "NAME", help: "The list's name (letters, digits, '-', '_', '.'); its quotes are source custom.NAME.")
    static let maxBytes = TypedOption<Int>(
        { .value("max-bytes", "SIZE", help: $0) }, absent: .value(importDefaultLimit), describedAs: ConfigText.size(importDefaultLimit),
        expected: tr("a size from \(ConfigText.sizes(ConfigLimits.maxBytes)) (such as 64M)"),
        help: { "Refuse a file larger than this (default \($0), at most \(ConfigText.size(ConfigLimits.maxBytes.upperBound))): reading stops at the cap." },
        parse: { text in ConfigValue.size(text).flatMap { ConfigLimits.maxBytes.contains($0) ? $0 : nil } })
    static let format = TypedOption<ExportFormat>.requiredChoice(
        "format", help: """
        json (an array of objects), csv (with a header row; a cell a spreadsheet would take for a formula \
        gets a leading ', which import takes off again), fortune (quotes separated by % lines), text (a \
        quote per line: its text, a dash, its author) or atom (an Atom 1.0 feed, an entry a quote). Every \
        format reads back with import.
        """)
    static let importFormat = TypedOption.choice("format", default: ListFormat.Kind.auto, help: {
        "What FILE is: json (the custom-list format, or quotectl's JSON export), fortune (records between % lines, an indented '-- author' last line), text (a quote per line, with an optional ' — author'), csv (a header row naming the text or quote, author, id and category columns), atom or rss (a feed, an entry a quote), or \($0) (the default: by the file's name and first bytes). Bytes that are not UTF-8 are read as Latin-1." })
    static let items = TypedOption.text("items", "POINTER", help: """
        json: where the list is, a JSON Pointer (RFC 6901) such as /results; a lone object there is a list \
        of one (the default: the whole file).
        """)
    static let fields = TypedOption.text("fields", "MAP", help: """
        json and csv: which member or column holds each field, such as 'text:q, author:a' (fields id, text, \
        author, category; a member starting with / is a JSON Pointer inside the item). Without an id, each \
        quote's id is derived from its text.
        """)
    static let split = TypedOption.choice("split", default: ListFormat.Split.line, help: { "text: a quote per line, or per paragraph (blank-line separated); the default is \($0)." })
    static let authorPattern = TypedOption.text("author-pattern", "REGEX", help: """
        atom and rss: a POSIX extended regular expression whose first group is the author of an entry that \
        names none (what it matched is taken out of the text), such as '~ *([^~]+) *~'.
        """)
    static let exportSource = TypedOption.text("source", "NAME", completion: .sourceName, help: "Only quotes from NAME (custom for every custom list).")

    // Syncing.
    static let now = Option.flag("now", help: "Sync now (the only mode).")
    static let syncSource = Option.value("source", "NAME", repeatable: true, completion: .sourceName,
                                         help: "Only this source (repeatable); a sync already running for it is joined, not started twice.")
    static let noWait = Option.flag("no-wait", help: "Return once the daemon has started the syncs.")

    // This user's own state: the quotes liked, hidden and shown ($XDG_STATE_HOME/quoted).
    static let randomLiked = Option.flag("liked",
        help: """
        Draw among the quotes you liked (quotectl like), from your own state: those gone from the store \
        too. Takes -n and the output options, not the filters.
        """)
    static let oncePer: TypedOption<OncePeriod?> = .choice("once-per",
        help: """
        Print a quote only if random --once-per has not greeted you yet this day (your local calendar day), \
        boot (since the machine started) or session (this login, by $XDG_SESSION_ID or the kernel's audit \
        session; where neither is known, the boot); otherwise print nothing and exit 0. For login greetings: \
        the quotes a bar, a follower, a notification or today shows do not count.
        """)
    static let exportLiked = Option.flag("liked",
        help: """
        Export the quotes you liked (from your own state, those gone from the store too) instead of the \
        store's; their ids are written SOURCE:ID, which import --liked reads back.
        """)
    static let importLiked = Option.flag("liked",
        help: """
        Add FILE's quotes to the quotes you liked instead of importing a list (no --name; the store is not \
        written): an id written SOURCE:ID by export --liked keeps its source, any other quote is matched to \
        the store's by its text.
        """)

    // Following: bars that read a command's lines as they come.
    static let followRange = 1...86_400
    static let follow = Option.flag("follow",
        help: """
        Keep running for a bar that reads lines as they come (waybar without interval, i3blocks \
        interval=persist, polybar tail = true): a line now, then at each --every, at once when the store \
        changes (a sync or an import commits) and on SIGUSR1 (quotectl next). Needs --format or --json (or \
        random's --oneline); i3blocks gets its full text only. random: one quote a line, so not with \
        --count; with --unseen each line is a quote not shown yet. Ends quietly when the bar closes the \
        pipe, with exit 74 when the store is removed.
        """)
    static let randomEvery = every(default: 300, help: { "With --follow: a new quote this often (default \($0); from \(ConfigText.durations(followRange)))." })
    static let statusEvery = every(default: 60, help: { "With --follow: the status again this often (default \($0); from \(ConfigText.durations(followRange)))." })

    private static func every(default seconds: Int, help: @escaping (_ defaultText: String) -> Message) -> TypedOption<Int> {
        TypedOption<Int>(
            { .value("every", "DURATION", help: $0) }, absent: .value(seconds), describedAs: ConfigText.duration(seconds),
            expected: tr("a duration from \(ConfigText.durations(followRange)) (such as 30s, 5m, 1h)"),
            help: help,
            parse: { text in ConfigValue.duration(text).flatMap { followRange.contains($0) ? $0 : nil } })
    }
}

/// The languages quotes are told apart by (`--lang`).
enum Language: String, OptionValue { case ko, en }

/// The currencies Upbit quotes pairs in (`markets --quote`).
enum QuoteCurrency: String, OptionValue {
    case KRW, BTC, USDT
}

extension ExportFormat: OptionValue {}
extension ListFormat.Kind: OptionValue {}
extension ListFormat.Split: OptionValue {}
extension Style.When: OptionValue {}
extension OncePeriod: OptionValue {}
