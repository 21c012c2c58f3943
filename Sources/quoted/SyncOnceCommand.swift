import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteDaemon
import QuoteFeed
import QuoteScheduling
import QuoteModels
import QuoteStore
import QuoteText
import QuoteSync
import QuoteSystem

/// `quoted sync --once [--source NAME]... [--config PATH] [--db PATH] [--json]`
enum SyncOnceCommand {
    /// Ends the command early with this exit code (its message already printed).
    struct Exit: Error {
        let code: ExitCode
    }

    static func run(_ words: [String]) async -> ExitCode {
        do throws(Exit) {
            let arguments = try parse(words)
            if arguments.has(Options.help) { printOut(HelpText.command(syncSpec, in: program, width: helpWidth)); return .success }
            // The daemon's child (--progress: it reads our stdout) stops when the daemon is gone.
            if arguments.has(Options.progress) { ParentWatch.start(output: .standardOutput) }
            let configuration = try loadConfiguration(arguments)
            if !arguments.has(Options.quiet) { WriterTurn.configure(waiting: { printError("quoted: \($0)") }) }
            var sources = try selectSources(arguments.all(Options.source), of: configuration)
            let storePath = Locations.store(option: arguments.value(Options.db), configured: configuration.storePath, writing: true)
            do {
                try Store.reconcileCustomLists(configuration.customListNames, storePath: storePath)
            } catch {
                printError("quoted: \(error)")
                return error.exitCode
            }
            if sources.isEmpty && configuration.fleet == nil {
                // English on purpose: sync --once speaks for the daemon: its lines go to the journal and its results to sync_log
                printError("quoted: no source is enabled")
                return .success
            }
            var reports = await sync(&sources, configuration: configuration, storePath: storePath, arguments: arguments)
            // A hub: what changed goes into the feed (happiness changes its days even when no quote is new),
            // and a manifest half through its validity is signed afresh even when nothing did.
            var publishFailure: ExitCode?
            if let publish = configuration.publish {
                let changed = reports.filter { $0.ok && ($0.counts.changed > 0 || $0.source == SourceName.happiness) }.map(\.source)
                if !changed.isEmpty || Publisher.isDueForResigning(publish),
                   let failure = PublishCommand.publish(publish, configuration: configuration, storePath: storePath,
                                                        only: Set(changed), quiet: arguments.has(Options.quiet),
                                                        logger: daemonLogger(arguments, configuration)) {
                    publishFailure = failure.code
                    // A re-signing that failed (nothing changed) leaves the feed to expire: every source of this run says so.
                    let left = changed.isEmpty ? Set(reports.filter(\.ok).map(\.source)) : Set(changed)
                    reports = failedToPublish(reports, changed: left, reason: failure.reason, configuration: configuration, storePath: storePath)
                }
            }
            report(reports, storePath: storePath, arguments: arguments)
            return publishFailure ?? exitCode(for: reports)
        } catch {
            return error.code
        }
    }

    private static func parse(_ words: [String]) throws(Exit) -> Arguments {
        let arguments: Arguments
        do {
            arguments = try Arguments(words, options: syncSpec.options + Options.global, command: "sync")
            _ = try arguments.positionals(for: syncSpec)
        } catch {
            throw Exit(code: usageFailure(error))
        }
        guard arguments.has(Options.once) || arguments.has(Options.help) else {
            throw Exit(code: usageFailure(UsageError(message: tr("sync needs --once (the daemon is 'quoted run'; 'quotectl sync --now' asks it)"), command: "sync")))
        }
        return arguments
    }

    private static func loadConfiguration(_ arguments: Arguments) throws(Exit) -> Configuration {
        let configuration: Configuration
        do {
            if arguments.value(Options.config) == "-" {
                // English on purpose: sync --once speaks for the daemon: its lines go to the journal and its results to sync_log
                configuration = try ConfigFile.loadStandardInput(name: arguments.value(Options.configName) ?? "(standard input)")
            } else {
                configuration = try ConfigFile.load(option: arguments.value(Options.config))
            }
        } catch {
            printError("quoted: \(error)")
            throw Exit(code: .configuration)
        }
        // The daemon's child (--progress) is handed the configuration the daemon loaded, whose
        // warnings the daemon logs once per load: repeated by every child, they would fill its log.
        guard !arguments.has(Options.progress) else { return configuration }
        // English on purpose: sync --once speaks for the daemon: its lines go to the journal and its results to sync_log
        for warning in configuration.warnings { printError("quoted: warning: \(warning)") }
        return configuration
    }

    /// Every enabled source, or the named ones (a spoke may name one only its hub's feed holds).
    private static func selectSources(_ named: [String], of configuration: Configuration) throws(Exit) -> [SourceSettings] {
        guard !named.isEmpty else { return configuration.enabledSources }
        var sources: [SourceSettings] = []
        for name in named {
            if configuration.fleet != nil, configuration.source(named: name) == nil, SourceName.kind(of: name) != nil { continue }
            guard let settings = configuration.source(named: name) else {
                let known = configuration.sources.map(\.name).joined(separator: ", ")
                throw Exit(code: usageFailure(UsageError(message: tr("unknown source '\(name)' (configured: \(known))"), command: "sync")))
            }
            if settings.kind == .weather, settings.apiKey == nil {
                // English on purpose: sync --once speaks for the daemon: its lines go to the journal and its results to sync_log
                // English on purpose: sync --once speaks for the daemon (its lines go to the journal)
                printError("quoted: \(configuration.file ?? "configuration"): [source.weather] needs api_key or api_key_file")
                throw Exit(code: .configuration)
            }
            if !sources.contains(where: { $0.name == name }) { sources.append(settings) }
        }
        return sources
    }

    /// Syncs: on a spoke, what its hub's feed holds from there (whole, whatever --source says:
    /// one manifest request answers for all of them, and the daemon's child for one fed source
    /// brings every one), the rest from the upstreams.
    private static func sync(_ sources: inout [SourceSettings], configuration: Configuration, storePath: String,
                             arguments: Arguments) async -> [SourceReport] {
        let quiet = arguments.has(Options.quiet)
        // On a terminal, a live line per running source; otherwise only the summaries, as ever.
        let columns = Descriptor.standardError.terminalColumns
        let lines = !quiet && columns > 0 ? LiveLines(descriptor: 2, width: columns) : nil
        // For the daemon (--progress): progress as "progress<TAB>SOURCE<TAB>TEXT" lines on stdout.
        let relay = arguments.has(Options.progress)
        let engine = SyncEngine(storePath: storePath)
        let finished: @Sendable (SourceReport) -> Void = { report in
            let line = TerminalSanitizer.clean(report.summaryLine)
            if let lines { lines.finish(report.source, summary: line) } else if !quiet { printError(line) }
        }
        var reports: [SourceReport] = []
        if let fleet = configuration.fleet {
            let outcome = await FleetSync(engine: engine, fleet: fleet, configuration: configuration).sync(only: nil, finished: finished)
            reports += outcome.reports
            sources.removeAll { outcome.fed.contains($0.name) }
        }
        reports += await engine.sync(sources, progress: { source, text in
            if relay { printOut("progress\t\(source)\t\(text)") }
            lines?.update(source, "\(source): \(text)")
        }, finished: finished)
        return reports
    }

    /// The daemon's child (--progress) logs what the daemon would, with its level: nil for a person's run.
    private static func daemonLogger(_ arguments: Arguments, _ configuration: Configuration) -> Logger? {
        arguments.has(Options.progress) ? Logger(level: Logger.Level(configuration.logLevel ?? .standard)) : nil
    }

    /// The reports of the sources a failed publish left out of the feed, failed — and recorded so in
    /// the store, so that `status` and the daemon say it rather than "success".
    private static func failedToPublish(_ reports: [SourceReport], changed: Set<String>, reason: String, configuration: Configuration,
                                        storePath: String) -> [SourceReport] {
        let store: Store?
        var unrecorded: StoreError?
        do { store = try Store(path: storePath, access: .write) } catch {
            store = nil
            unrecorded = error
        }
        return reports.map { report in
            guard changed.contains(report.source), let settings = configuration.source(named: report.source) else { return report }
            var failed = report
            failed.ok = false
            // English on purpose: sync --once speaks for the daemon: its lines go to the journal and its results to sync_log
            failed.summary = "\(report.summary), but the feed was not published: \(reason)"
            let now = UnixTime.now()
            do throws(StoreError) {
                // English on purpose: sync --once speaks for the daemon: its lines go to the journal and its results to sync_log
                guard let store else { throw unrecorded ?? StoreError.missing(path: storePath, reason: "not opened") }
                try store.write { (transaction) throws(StoreError) in
                    try transaction.syncState.recordLocalFailure(
                        source: report.source, url: URLText.redacted(settings.url),
                        outcome: SyncStateRepository.Outcome(ok: false, httpStatus: nil, message: failed.summary, started: now, finished: now),
                        nextDue: report.nextDue ?? now + 60)
                }
            } catch {
                // English on purpose: sync --once speaks for the daemon: its lines go to the journal and its results to sync_log
                failed.summary += " (and that could not be recorded: \(error))"
            }
            return failed
        }
    }

    /// The phase times (--timings) and the JSON summary (--json).
    private static func report(_ reports: [SourceReport], storePath: String, arguments: Arguments) {
        if arguments.has(Options.timings) {
            for report in reports where !report.phases.isEmpty {
                printError("\(report.source) phases: " + report.phases.map { "\($0.name) \(Int(($0.seconds * 10).rounded()) / 10).\(Int(($0.seconds * 10).rounded()) % 10)" }.joined(separator: ", "))
            }
        }
        if arguments.has(Options.json) {
            var object = JSONObjectBuilder()
            object.add("ok", reports.allSatisfy(\.ok))
            object.add("store", storePath)
            object.addRaw("sources", json: "[" + reports.map(\.json).joined(separator: ",") + "]")
            printOut(object.result)
        }
    }

    private static func exitCode(for reports: [SourceReport]) -> ExitCode {
        if reports.contains(where: \.isConfigurationProblem) { return .configuration }
        // The store's own failure (74 I/O, 75 busy) says more than "a source failed".
        let storeCodes = reports.compactMap { $0.storeExitCode }
        if !storeCodes.isEmpty { return storeCodes.contains(.ioError) ? .ioError : .temporaryFailure }
        return reports.allSatisfy(\.ok) ? .success : .temporaryFailure
    }
}

func usageFailure(_ error: UsageError) -> ExitCode {
    printError(error.lines(program: "quoted"), newline: false)
    return .usage
}
