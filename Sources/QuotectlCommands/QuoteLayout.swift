import QuoteBase
import QuoteCommandLine
import QuoteModels
import QuoteText

/// How `random` and `today` print a quote: for a person (with its attribution; wrapped to the
/// terminal, or as written when its writer laid it out: `TextLayout`), for a script (`--json`),
/// on one line (`--oneline`), through the user's template (`--format '{text} ({author})'`), or
/// as exactly what a status bar reads (`--format waybar|i3blocks|polybar|tmux`). Every form is
/// sanitised: no terminal control from an upstream reaches the output, and the one-line forms
/// hold one line whatever the quote holds.
enum QuoteLayout: Equatable {
    case plain
    case json
    case oneLine
    case template(FieldTemplate<QuoteField>)
    case bar(Bar)

    /// The status bars and prompts quotectl speaks to.
    enum Bar: String, CaseIterable, Equatable {
        /// waybar's custom module with `"return-type": "json"`: one JSON object per line.
        case waybar
        /// i3blocks: the full_text line, then the short_text line.
        case i3blocks
        /// polybar's script module: one line, `%` doubled (polybar reads `%{…}` as format tags).
        case polybar
        /// tmux's `#(…)`: one line, `#` doubled (tmux reads `#[…]` as styles).
        case tmux

        /// What the bar reads for one quote.
        func lines(for quote: Quote, maxWidth: Int?) -> [String] {
            let line = QuoteLine.of(quote)
            let fitted = maxWidth.map { DisplayWidth.shortened(line, to: $0) } ?? line
            switch self {
            case .tmux, .polybar: return [escaped(fitted)]
            // full_text, then short_text (what i3bar shows when the bar runs out of room).
            case .i3blocks: return [fitted, DisplayWidth.shortened(QuoteLine.text(quote), to: min(maxWidth ?? 40, 40))]
            case .waybar: return [Waybar.object(for: quote, maxWidth: maxWidth)]
            }
        }

        /// A one-line bar's text with what the bar would interpret written literally.
        func escaped(_ line: String) -> String {
            switch self {
            case .polybar: return line.replacingAll("%", with: "%%")
            case .tmux: return line.replacingAll("#", with: "##")
            case .waybar: return Waybar.markup(line)
            case .i3blocks: return line
            }
        }
    }

    /// From `--json`, `--oneline` and `--format`, which exclude each other.
    static func from(_ arguments: Arguments, command: String) throws(UsageError) -> QuoteLayout {
        let format = arguments.value(Options.quoteFormat)
        let chosen = [arguments.has(Options.json), arguments.has(Options.oneline), format != nil].filter { $0 }.count
        guard chosen <= 1 else { throw UsageError(message: tr("--json, --oneline and --format exclude each other"), command: command) }
        if arguments.has(Options.json) { return .json }
        if arguments.has(Options.oneline) { return .oneLine }
        guard let format else { return .plain }
        if let bar = Bar(rawValue: format) { return .bar(bar) }
        guard format.contains("{") else {
            let bars = Bar.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(message: tr("--format takes a template with {fields} or one of \(bars): '\(format)' is neither")
                             + Suggestion.didYouMean(format, among: Bar.allCases.map(\.rawValue)), command: command)
        }
        do {
            return .template(try FieldTemplate<QuoteField>(format))
        } catch {
            throw UsageError(message: "--format: \(error.message)", command: command)
        }
    }

    /// The lines for one quote, shortened to `maxWidth` columns where the layout is one line.
    func lines(for quote: Quote, maxWidth: Int?) -> [String] {
        switch self {
        case .plain, .json:
            return []  // printed by printQuote: for the terminal (`TextLayout`), or JSON
        case .oneLine:
            return [fit(QuoteLine.of(quote), maxWidth)]
        case .template(let template):
            return [fit(template.render { QuoteField.value($0, of: quote) }, maxWidth)]
        case .bar(let bar):
            return bar.lines(for: quote, maxWidth: maxWidth)
        }
    }

    private func fit(_ line: String, _ maxWidth: Int?) -> String {
        maxWidth.map { DisplayWidth.shortened(line, to: $0) } ?? line
    }
}

/// A quote on one line: its text, a dash, its author — sanitised, every run of white space
/// (a newline, a tab) made one space.
enum QuoteLine {
    static func of(_ quote: Quote) -> String {
        let author = quote.author.map(oneLine) ?? ""
        return text(quote) + (author.isEmpty ? "" : " — " + author)
    }

    static func text(_ quote: Quote) -> String { oneLine(quote.text) }

    static func oneLine(_ text: String) -> String { TerminalSanitizer.oneLine(text) }
}

/// The fields a quote template may name.
enum QuoteField: String, TemplateField {
    case text, author, source, character, production, episode, category, lang, id, published

    static func value(_ field: QuoteField, of quote: Quote) -> String {
        switch field {
        case .text: return QuoteLine.text(quote)
        case .author: return quote.author.map(QuoteLine.oneLine) ?? ""
        case .source: return quote.source
        // Breaking Bad quotes are attributed to the character who speaks them.
        case .character: return quote.source == SourceName.breakingbad ? quote.author.map(QuoteLine.oneLine) ?? "" : ""
        case .production: return quote.production.map(QuoteLine.oneLine) ?? ""
        case .episode: return quote.episode.map(String.init) ?? ""
        case .category: return quote.category.map(QuoteLine.oneLine) ?? ""
        case .lang: return quote.lang ?? ""
        case .id: return QuoteLine.oneLine(quote.upstreamID)
        // A feed entry's date, as --json writes it ("2026-12-01T00:00:00Z").
        case .published: return quote.published.flatMap(UTCTimestamp.format) ?? ""
        }
    }
}

/// waybar's custom-module JSON: `text` for the bar, `tooltip` with the whole quote, `class` by
/// source (CSS classes: `quote` and e.g. `custom-stoics`), `alt` the source's name. waybar
/// reads text and tooltip as Pango markup, so &, < and > are written as entities.
enum Waybar {
    static func object(for quote: Quote, maxWidth: Int?) -> String {
        let line = QuoteLine.of(quote)
        let text = maxWidth.map { DisplayWidth.shortened(line, to: $0) } ?? line
        var tooltip = TerminalSanitizer.clean(quote.text)
        if let author = quote.author { tooltip += "\n— " + QuoteLine.oneLine(author) }
        return object(text: text, tooltip: tooltip, classes: ["quote", cssClass(quote.source)], alt: quote.source)
    }

    static func object(text: String, tooltip: String, classes: [String], alt: String) -> String {
        "{\"text\": \(JSONWriter.quoted(markup(text))), \"tooltip\": \(JSONWriter.quoted(markup(tooltip))), "
            + "\"class\": [\(classes.map(JSONWriter.quoted).joined(separator: ", "))], \"alt\": \(JSONWriter.quoted(alt))}"
    }

    /// `custom.stoics` -> `custom-stoics`: a CSS class name has no dots.
    static func cssClass(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
    }

    static func markup(_ text: String) -> String { Markup.escape(text) }
}
