import CSystem
import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteScheduling
import QuoteStore
import QuoteSync

/// `quoted sync --once [--source NAME]... [--config PATH] [--db PATH] [--json]`
enum SyncOnceCommand {
    static func run(_ words: [String]) async -> ExitCode {
        let arguments: Arguments
        do {
            arguments = try Arguments(words, options: syncSpec.options + Options.global, command: "sync")
            _ = try arguments.positionals(for: syncSpec)
        } catch {
            return usageFailure(error)
        }
        if arguments.has(Options.help) { printOut(HelpText.command(syncSpec, in: program)); return .success }
        guard arguments.has(Options.once) else {
            return usageFailure(UsageError(message: "sync needs --once (the daemon is 'quoted run'; 'quotectl sync --now' asks it)", command: "sync"))
        }
        let configuration: Configuration
        do {
            if arguments.value(Options.config) == "-" {
                configuration = try ConfigFile.loadStandardInput(name: arguments.value(Options.configName) ?? "(standard input)")
            } else {
                configuration = try ConfigFile.load(option: arguments.value(Options.config))
            }
        } catch {
            printError("quoted: \(error)")
            return .configuration
        }
        for warning in configuration.warnings { printError("quoted: warning: \(warning)") }

        var sources = configuration.enabledSources
        let named = arguments.all(Options.source)
        if !named.isEmpty {
            sources = []
            for name in named {
                // A spoke may name a source only its hub's feed holds.
                if configuration.fleet != nil, configuration.source(named: name) == nil, SourceName.kind(of: name) != nil { continue }
                guard let settings = configuration.source(named: name) else {
                    let known = configuration.sources.map(\.name).joined(separator: ", ")
                    return usageFailure(UsageError(message: "unknown source '\(name)' (configured: \(known))", command: "sync"))
                }
                if settings.kind == .weather, settings.apiKey == nil {
                    printError("quoted: \(configuration.file ?? "configuration"): [source.weather] needs api_key or api_key_file")
                    return .configuration
                }
                if !sources.contains(where: { $0.name == name }) { sources.append(settings) }
            }
        }
        let storePath = Locations.store(option: arguments.value(Options.db), configured: configuration.storePath, writing: true)
        do {
            try Store.reconcileCustomLists(configuration.customListNames, storePath: storePath)
        } catch {
            printError("quoted: \(error)")
            return error.exitCode
        }
        if sources.isEmpty && configuration.fleet == nil {
            printError("quoted: no source is enabled")
            return .success
        }
        let quiet = arguments.has(Options.quiet)
        // On a terminal, a live line per running source; otherwise only the summaries, as ever.
        let columns = Int(quoted_terminal_columns(2))
        let lines = !quiet && columns > 0 ? LiveLines(descriptor: 2, width: columns) : nil
        // For the daemon (--progress): progress as "progress<TAB>SOURCE<TAB>TEXT" lines on stdout.
        let relay = arguments.has(Options.progress)
        let engine = SyncEngine(storePath: storePath)
        let finished: @Sendable (SourceReport) -> Void = { report in
            let line = TerminalSanitizer.clean(report.progressLine)
            if let lines { lines.finish(report.source, summary: line) } else if !quiet { printError(line) }
        }
        var reports: [SourceReport] = []
        // A spoke: what its hub's feed holds comes from there; the rest from the upstreams. The
        // feed is synced whole whatever --source says (the daemon's child for one fed source
        // brings every one): one manifest request answers for all of them, and its ETag may
        // only be kept once every source it lists was applied.
        if let fleet = configuration.fleet {
            let outcome = await FleetSync(engine: engine, fleet: fleet, configuration: configuration)
                .sync(only: nil, progress: finished)
            reports += outcome.reports
            sources.removeAll { outcome.fed.contains($0.name) }
        }
        reports += await engine.sync(sources, live: { source, text in
            if relay { printOut("progress\t\(source)\t\(text)") }
            lines?.update(source, "\(source): \(text)")
        }, progress: finished)
        // A hub: what changed goes into the feed.
        if let publish = configuration.publish {
            // Happiness changes its days even when no quote is new.
            let changed = reports.filter { $0.ok && ($0.counts.changed > 0 || $0.source == "happiness") }.map(\.source)
            if !changed.isEmpty, let failure = PublishCommand.publish(publish, configuration: configuration, storePath: storePath,
                                                                         only: Set(changed), quiet: quiet) {
                return failure
            }
        }
        if arguments.has(Options.timings) {
            for report in reports where !report.phases.isEmpty {
                printError("\(report.source) phases: " + report.phases.map { "\($0.name) \(Int(($0.seconds * 10).rounded()) / 10).\(Int(($0.seconds * 10).rounded()) % 10)" }.joined(separator: ", "))
            }
        }
        let ok = reports.allSatisfy(\.ok)
        if arguments.has(Options.json) {
            var object = JSONObjectBuilder()
            object.add("ok", ok)
            object.add("store", storePath)
            object.addRaw("sources", json: "[" + reports.map(\.json).joined(separator: ",") + "]")
            printOut(object.result)
        }
        if reports.contains(where: \.isConfigurationProblem) { return .configuration }
        // The store's own failure (74 I/O, 75 busy) says more than "a source failed".
        let storeCodes = reports.compactMap { $0.storeExitCode }
        if !storeCodes.isEmpty { return storeCodes.contains(.ioError) ? .ioError : .temporaryFailure }
        return ok ? .success : .temporaryFailure
    }
}

func usageFailure(_ error: UsageError) -> ExitCode {
    printError(error.lines(program: "quoted"), newline: false)
    return .usage
}
