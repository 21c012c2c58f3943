import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore
import QuoteText

/// Prints rows as JSON lines or text. Nothing to show is answered as `random` answers no
/// match: one line on stderr saying how to get some, and exit 66 — the same for every command.
private func printList<Row>(_ rows: [Row], json: Bool, empty: String, jsonLine: (Row) -> String, text: (Row) -> String) -> ExitCode {
    if rows.isEmpty {
        Output.error(empty)
        return .noInput
    }
    for row in rows {
        Output.safeLine(json ? jsonLine(row) : text(row))
    }
    return .success
}

/// Turns a stored JSON array of strings into "a, b, c".
private func listText(_ json: String) -> String {
    guard let values = try? JSONParser.parse(json).array else { return "" }
    return values.compactMap(\.string).joined(separator: ", ")
}

let charactersSpec = CommandSpec(
    name: Subcommand.characters.rawValue,
    overview: "List Breaking Bad characters in the store, each with its death if any.",
    positionals: [Positional("NAME", optional: true, help: "Only characters whose name contains NAME (any case).")],
    options: [Options.json])

let charactersCommand = Command(charactersSpec, pages: true) { arguments, context in
        guard arguments.positionals.count <= 1 else {
            throw UsageError(message: tr("unexpected argument '\(arguments.positionals[1])'"), command: "characters")
        }
        let name = arguments.positionals.first
        let store = try context.store()
        let characters = try store.listings.characters(matching: name)
        if characters.isEmpty, let name {
            Output.error(tr("no character matches \"\(name)\""))
            return .noInput
        }
        return printList(characters, json: arguments.has(Options.json),
                  empty: tr("no characters stored yet (they come with the breakingbad source: quotectl sync --now --source breakingbad)"),
                  jsonLine: \.json) { character in
            var lines = [character.name + (character.fullName.map { $0 != character.name ? " (\($0))" : "" } ?? "")]
            if let status = character.status { lines.append("  " + tr("status: \(status)")) }
            if let actor = character.portrayedBy { lines.append("  " + tr("portrayed by: \(actor)")) }
            if let birthday = character.birthday { lines.append("  " + tr("birthday: \(birthday)")) }
            let occupations = listText(character.occupations)
            if !occupations.isEmpty { lines.append("  " + tr("occupations: \(occupations)")) }
            let aliases = listText(character.aliases)
            if !aliases.isEmpty { lines.append("  " + tr("aliases: \(aliases)")) }
            lines.append("  " + tr("quotes stored: \(character.quoteCount)"))
            if let death = character.death {
                let cause = death.cause ?? tr("unknown cause")
                var line = "  " + tr("death: \(cause)")
                if let production = death.production {
                    line += death.episode.map { tr(" (\(production), episode \($0))") } ?? " (\(production))"
                }
                lines.append(line)
                if let words = death.lastWords { lines.append("  " + tr("last words: \(words)")) }
            }
            return lines.flatMap { wrappedForTerminal($0, indent: 2) }.joined(separator: "\n")
        }
}

let deathsSpec = CommandSpec(name: Subcommand.deaths.rawValue, overview: "List the Breaking Bad deaths in the store.", options: [Options.json])

let deathsCommand = Command(deathsSpec, pages: true) { arguments, context in
        _ = try arguments.positionals(for: deathsSpec)
        let store = try context.store()
        let deaths = try store.listings.deaths()
        return printList(deaths, json: arguments.has(Options.json),
                  empty: tr("no deaths stored yet (they come with the breakingbad source: quotectl sync --now --source breakingbad)"),
                  jsonLine: \.json) { death in
            var line = death.character + ": " + (death.cause ?? tr("unknown cause"))
            let responsible = listText(death.responsible)
            // TRANSLATORS: after a death's cause, who caused it.
            if !responsible.isEmpty { line += tr(" — by \(responsible)") }
            if let production = death.production { line += " [\(production)" + (death.episode.map { " \($0)]" } ?? "]") }
            return line
        }
}

let marketsSpec = CommandSpec(
    name: Subcommand.markets.rawValue,
    overview: "List the Upbit markets in the store (pairs still listed).",
    options: [Options.quoteCurrency.option, Options.warning, Options.json])

let marketsCommand = Command(marketsSpec, pages: true) { arguments, context in
        _ = try arguments.positionals(for: marketsSpec)
        let quote = try arguments.value(Options.quoteCurrency)?.rawValue
        let store = try context.store()
        let markets = try store.listings.markets(quoteCurrency: quote, warningOnly: arguments.has(Options.warning))
        if markets.isEmpty {
            let filters = (quote.map { ["--quote \($0)"] } ?? []) + (arguments.has(Options.warning) ? ["--warning"] : [])
            let all = filters.isEmpty ? markets : try store.listings.markets(quoteCurrency: nil, warningOnly: false)
            Output.error(all.isEmpty ? tr("no markets stored (they come with the upbit source: quotectl sync --now --source upbit)")
                         : tr("no market matches \(filters.joined(separator: " "))"))
            return .noInput
        }
        if arguments.has(Options.json) {
            for market in markets { Output.line(market.json) }
            return .success
        }
        // The pair and its flags must stay whole; the names wrap, and go (English first) when
        // even that does not fit.
        var table = Table([.init(tr("MARKET")), .init(tr("KOREAN"), .optional(rank: 2)), .init(tr("ENGLISH"), .optional(rank: 1)), .init(tr("FLAGS"), .wrap)])
        for market in markets {
            var flags: [String] = []
            if market.warning { flags.append(tr("warning")) }
            let caution = listText(market.caution)
            if !caution.isEmpty { flags.append(tr("caution: \(caution)")) }
            table.add([market.market, TerminalSanitizer.clean(market.koreanName ?? ""),
                       TerminalSanitizer.clean(market.englishName ?? ""), flags.joined(separator: "; ")])
        }
        for line in table.lines() { Output.line(line) }
        return .success
}

let weatherSpec = CommandSpec(name: Subcommand.weather.rawValue, overview: "Show the latest weather observation of each place in the store.", options: [Options.json])

let weatherCommand = Command(weatherSpec) { arguments, context in
        _ = try arguments.positionals(for: weatherSpec)
        let store = try context.store()
        let observations = try store.listings.weather()
        return printList(observations, json: arguments.has(Options.json),
                  empty: tr("no weather stored (the weather source is off until it has an OpenWeatherMap key: see man quoted.conf)"),
                  jsonLine: \.json) { observation in
            let unit = observation.units == "metric" ? "°C" : observation.units == "imperial" ? "°F" : " K"
            var line = (observation.place ?? "\(observation.lat), \(observation.lon)")
            if let country = observation.country { line += ", \(country)" }
            line += ": " + (observation.description ?? observation.condition ?? "")
            if let temp = observation.temp { line += ", \(temp)\(unit)" }
            if let humidity = observation.humidity { line += tr(", humidity \(humidity)%") }
            if let wind = observation.windSpeed {
                let speed = "\(wind) " + (observation.units == "imperial" ? "mph" : "m/s")
                line += tr(", wind \(speed)")
            }
            return line + " (\(UnixTime.localTimestamp(observation.observedAt)))"
        }
}
