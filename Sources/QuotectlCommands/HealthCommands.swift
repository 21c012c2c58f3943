import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteHealth
import QuoteScheduling
import QuoteStore
import QuoteText

let checkSpec = CommandSpec(
    name: Subcommand.check.rawValue,
    overview: "A health check for Nagios, Icinga and the like: one line and the plugin's exit status — 0 OK, 1 WARNING (a source's last attempt failed, or its last success is older than --stale-after-intervals intervals; never synced counts), 2 CRITICAL (a source failing for longer than --critical-after, or a spoke's feed past its expiry), 3 UNKNOWN (a missing or unreadable store, bad arguments: unlike every other command, not 64). It reads the store only, never creates one, and needs no daemon. The sources counted are the configuration's enabled ones; on a spoke, those it syncs, from a URL of its own or from the hub's feed (the hub's custom lists included), before the first sync too.",
    options: [Options.staleAfterIntervals.option, Options.criticalAfter.option])

let checkCommand = Command(checkSpec, onUsageError: checkUsageFailure) { arguments, context in
    let configuration: Configuration
    let thresholds: HealthThresholds
    do {
        _ = try arguments.positionals(for: checkSpec)
        configuration = try context.configuration() ?? .defaults
        thresholds = try checkThresholds(arguments, settings: configuration.check)
    } catch let error as UsageError {
        return checkUsageFailure(error)
    } catch {
        return checkUnknown(String(describing: error))
    }
    let now = Run.now()
    do {
        let path = try context.storePath()
        // A monitoring system must never be the one that made an empty store appear.
        // English on purpose: a Nagios plugin's output, read by the monitoring system.
        guard Path.exists(path) else { return checkUnknown("no store at \(path)") }
        // Nor fill a file that holds none yet (0 bytes, SQLite with no schema): UNKNOWN, the file as it was.
        context.noCreate = true
        let store = try context.store(.read)
        let sources = try HealthScope(configuration).read(store.health.rows).sources
        let verdict = HealthVerdict(sources: sources, now: now, thresholds: thresholds)
        Output.line(verdict.line)
        return ExitCode(rawValue: verdict.status.rawValue)
    } catch {
        return checkUnknown(String(describing: error))
    }
}

/// `--stale-after-intervals` and `--critical-after` over `[check]`, over the defaults.
private func checkThresholds(_ arguments: Arguments, settings: CheckSettings) throws -> HealthThresholds {
    var settings = settings
    if let intervals = try arguments.given(Options.staleAfterIntervals) { settings.staleAfterIntervals = intervals }
    if let seconds = try arguments.given(Options.criticalAfter) { settings.criticalAfter = seconds }
    return HealthThresholds(settings)
}

/// Bad arguments are UNKNOWN to a monitoring system (exit 3), with the usage line as Nagios plugins give it.
func checkUsageFailure(_ error: UsageError) -> ExitCode {
    Output.line(HealthVerdict.unknownLine(error.message))
    Output.standardError(TerminalSanitizer.clean(error.lines(program: "quotectl")))
    return ExitCode(rawValue: HealthVerdict.Status.unknown.rawValue)
}

private func checkUnknown(_ reason: String) -> ExitCode {
    Output.line(HealthVerdict.unknownLine(reason))
    return ExitCode(rawValue: HealthVerdict.Status.unknown.rawValue)
}

/// `status --format prometheus`: the metrics the daemon's textfile holds, read now; the
/// daemon's own when it answers on its control socket.
func printMetrics(store: Store, configuration: Configuration?) throws {
    let configuration = configuration ?? .defaults
    let scope = HealthScope(configuration)
    let read = try scope.read(store.health.rows)
    let daemon = DaemonStatus.query(configured: configuration.socketPath)
    let daemonHealth = daemon.startedAt.map { DaemonHealth(startTime: $0, syncsTotal: daemon.syncsRun ?? 0) }
    let snapshot = MetricsSnapshot(version: version, scope: scope, sources: read.sources, spokeFeed: read.spokeFeed,
                                   daemon: daemonHealth)
    Output.write(PrometheusText.render(snapshot))
}
