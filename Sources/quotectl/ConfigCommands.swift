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
        guard action == "check" else { throw UsageError(message: "unknown action '\(action)' (config check)", command: "config") }
        let option = arguments.value(Options.config)
        guard let location = Locations.configuration(option: option) else {
            Output.safeLine("No configuration file (looked for " + Locations.configurationCandidates().joined(separator: " and ")
                            + "); built-in defaults apply.")
            return .success
        }
        let configuration: Configuration
        do throws(ConfigError) {
            configuration = try Configuration.load(path: location.path)
        } catch {
            Output.error(error.description)
            return .configuration
        }
        for warning in configuration.warnings { Output.error("warning: \(warning)") }
        Output.safeLine("\(location.path): OK")
        if let publish = configuration.publish {
            Output.safeLine("  a hub: publishes the feed '\(publish.name ?? "(this host's name)")' to \(publish.dir)"
                            + (publish.signingKeys.isEmpty ? ", unsigned" : ", signed with " + publish.signingKeys.joined(separator: " and "))
                            + ", each manifest valid for \(ConfigText.duration(publish.validFor))")
        }
        if let fleet = configuration.fleet {
            Output.safeLine("  a spoke: every source the feed at \(URLText.redacted(fleet.hub)) lists comes from there"
                            + (fleet.hubKeys.isEmpty ? " (unsigned: a loopback hub)" : " (its signature checked with " + fleet.hubKeys.joined(separator: " or ") + ")"))
        }
        var table = Table([.init("SOURCE"), .init("STATE"), .init("WHEN", .wrap), .init("FROM", .wrap)])
        for source in configuration.sources {
            // On a spoke a source without a url of its own comes from the hub (when the feed lists it).
            let origin = configuration.fleet != nil && !source.urlIsOwn ? "the hub's feed" : URLText.redacted(source.url)
            // happiness follows its upstream's day, whatever the interval says.
            let when = source.kind == .happiness ? "daily, after 00:00 UTC" : "every " + durationText(source.interval)
            table.add([source.name, source.enabled ? "enabled" : "disabled", when, TerminalSanitizer.clean(origin)])
        }
        for line in table.lines() { Output.line("  " + line) }
        return .success
}

/// "1h", "30m", "1d 6h".
func durationText(_ seconds: Int) -> String {
    var parts: [String] = []
    var rest = seconds
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
        parts.append("\(rest / size)\(unit)")
        rest %= size
    }
    return parts.isEmpty ? "0s" : parts.joined(separator: " ")
}

let forgetSpec = CommandSpec(
    name: Subcommand.forget.rawValue,
    overview: "Remove a custom list and its quotes from the store. A list still in the config is synced again on the next run.",
    positionals: [Positional("NAME", completion: .asked("lists"), help: "The list's name (NAME or custom.NAME).")],
    options: [])

let forgetCommand = Command(forgetSpec) { arguments, context in
        let given = try arguments.positionals(for: forgetSpec)[0]
        guard let source = SourceName.custom(named: given) else {
            throw UsageError(message: "'\(given)' is not a custom list name (only custom lists can be forgotten)", command: "forget")
        }
        let store = try context.store(.write)
        let known = try QuoteWriter(database: store.database).hasSource(source)
        guard known else {
            Output.error("the store has no list \(source)")
            return .noInput
        }
        let removed = try store.database.transaction { () throws(StoreError) in try QuoteWriter(database: store.database).forget(source: source) }
        Output.line("\(source): forgot \(counted(removed, "quote"))")
        // Forgotten, but still configured: the next sync brings it back. Say so.
        if let configuration = try? context.configuration(), configuration.customListNames.contains(source) {
            Output.error("warning: \(source) is still in \(configuration.file ?? "the configuration"); the next sync brings it back "
                         + "(remove [source.\(source)] to forget it for good)")
        }
        return .success
}
