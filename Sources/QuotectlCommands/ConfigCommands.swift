import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteModels
import QuoteStore
import QuoteText

let configSpec = CommandSpec(
    name: Subcommand.config.rawValue,
    overview: "Check the daemon's configuration file: `quotectl config check` runs the same validation as quoted.",
    positionals: [Positional("check", completion: .choices(["check"]), help: "Validate the file (--config PATH, or the one quoted would read) and list the sources it enables.")],
    options: [])

let configCommand = Command(configSpec) { arguments, _ in
        let action = try arguments.positionals(for: configSpec)[0]
        guard action == "check" else { throw UsageError(message: tr("unknown action '\(action)' (config check)"), command: "config") }
        let option = arguments.value(Options.config)
        guard let location = Locations.configuration(option: option) else {
            let looked = Locations.configurationCandidates().joined(separator: tr(" and "))
            Output.safeLine(tr("No configuration file (looked for \(looked)); built-in defaults apply."))
            return .success
        }
        let configuration: Configuration
        do throws(ConfigError) {
            configuration = try Configuration.load(path: location.path)
        } catch {
            // Every problem of the file, a line each in line order, as a compiler names them.
            for problem in error.all { Output.error(problem.description) }
            return .configuration
        }
        for warning in configuration.warnings { Output.error(tr("warning: \(warning)")) }
        Output.safeLine(tr("\(location.path): OK"))
        if let publish = configuration.publish {
            let name = publish.name ?? tr("(this host's name)")
            let valid = ConfigText.duration(publish.validFor)
            let keys = publish.signingKeys.joined(separator: tr(" and "))
            Output.safeLine("  " + (publish.signingKeys.isEmpty
                ? tr("a hub: publishes the feed '\(name)' to \(publish.dir), unsigned, each manifest valid for \(valid)")
                : tr("a hub: publishes the feed '\(name)' to \(publish.dir), signed with \(keys), each manifest valid for \(valid)")))
        }
        if let fleet = configuration.fleet {
            let hub = URLText.redacted(fleet.hub)
            // TRANSLATORS: joins the names of the hub's keys: "a.pub or b.pub".
            let keys = fleet.hubKeys.joined(separator: tr(" or "))
            Output.safeLine("  " + (fleet.hubKeys.isEmpty
                ? tr("a spoke: every source the feed at \(hub) lists comes from there (unsigned: a loopback hub)")
                : tr("a spoke: every source the feed at \(hub) lists comes from there (its signature checked with \(keys))")))
        }
        var table = Table([.init(tr("SOURCE")), .init(tr("STATE")), .init(tr("WHEN"), .wrap), .init(tr("FROM"), .wrap)])
        for source in configuration.sources {
            // On a spoke a source without a url of its own comes from the hub (when the feed lists it).
            let origin = configuration.fleet != nil && !source.urlIsOwn ? tr("the hub's feed") : URLText.redacted(source.url)
            // happiness follows its upstream's day, whatever the interval says.
            let when = source.kind == .happiness ? tr("daily, after 00:00 UTC") : tr("every \(durationText(source.interval))")
            table.add([source.name, source.enabled ? tr("enabled") : tr("disabled"), when, TerminalSanitizer.clean(origin)])
        }
        // Indented by two: the table gets the terminal's width less those.
        for line in table.rendered(width: Terminal.isTerminal ? max(20, Terminal.columns - 2) : nil).lines { Output.line("  " + line) }
        return .success
}

let forgetSpec = CommandSpec(
    name: Subcommand.forget.rawValue,
    overview: "Remove a custom list and its quotes from the store. A list still in the config is synced again on the next run.",
    positionals: [Positional("NAME", completion: .asked("lists"), help: "The list's name (NAME or custom.NAME).")],
    options: [])

let forgetCommand = Command(forgetSpec) { arguments, context in
        let given = try arguments.positionals(for: forgetSpec)[0]
        guard let source = SourceName.custom(named: given) else {
            throw UsageError(message: tr("'\(given)' is not a custom list name (only custom lists can be forgotten)"), command: "forget")
        }
        let store = try context.store(.write)
        let known = try store.status.hasSource(source)
        guard known else {
            Output.error(tr("the store has no list \(source)"))
            return .noInput
        }
        let removed = try store.write { (transaction) throws(StoreError) in try transaction.quotes.forget(source: source) }
        Output.line(trn(removed, "\(source): forgot \(removed) quote", "\(source): forgot \(removed) quotes"))
        // Forgotten, but still configured: the next sync brings it back. Say so.
        if let configuration = try? context.configuration(), configuration.customListNames.contains(source) {
            let file = configuration.file ?? tr("the configuration")
            Output.error(tr("""
                warning: \(source) is still in \(file); the next sync brings it back \
                (remove [source.\(source)] to forget it for good)
                """))
        }
        return .success
}
