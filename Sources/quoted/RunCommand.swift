import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteDaemon
import QuoteStore
import QuoteSync
import QuoteSystem

/// `quoted [run] [--config PATH] [--db PATH] [--log-level LEVEL]`: the daemon, in the foreground.
enum RunCommand {
    static func run(_ words: [String]) async -> ExitCode {
        let arguments: Arguments
        do {
            arguments = try Arguments(words, options: runSpec.options + Options.global, command: "run")
            _ = try arguments.positionals(for: runSpec)
        } catch {
            return usageFailure(error)
        }
        if arguments.has(Options.help) { printOut(HelpText.command(runSpec, in: program, width: helpWidth)); return .success }
        let configOption = arguments.value(Options.config)
        let configuration: Configuration
        do {
            configuration = try ConfigFile.load(option: configOption)
        } catch {
            printError("quoted: \(error)")
            return .configuration
        }
        let chosen: LogLevel?
        do {
            chosen = try arguments.given(Options.logLevel)
        } catch {
            return usageFailure(error)
        }
        let logger = Logger(level: Logger.Level(chosen ?? configuration.logLevel ?? .standard))
        warn(about: configuration, to: logger)
        let storePath = Locations.store(option: arguments.value(Options.db), configured: configuration.storePath, writing: true)
        let notifier = SystemdNotifier()
        guard case .success(let textfile) = metricsTextfile(configuration, logger: logger) else { return .configuration }
        // Every deadline of the daemon, its control socket and its children's stops, on one clock.
        let clock = SystemClock()
        let daemon = Daemon(
            configuration: configuration, storePath: storePath,
            runner: ChildProcessRunner(storePath: storePath, clock: clock),
            logger: logger, notifier: notifier, watchdogInterval: SystemdNotifier.watchdogInterval(),
            loadConfiguration: { try ConfigFile.load(option: configOption) }, clock: clock, textfile: textfile)
        if let failure = await prepare(daemon, storePath: storePath, logger: logger) { return failure }
        let socketPath = Locations.sockets(configured: configuration.socketPath)[0]
        let server = ControlServer(path: socketPath, logger: logger, clock: clock)
        if let failure = start(server, socketPath: socketPath, logger: logger) { return failure }
        // Handlers are in place before readiness is announced: an early signal is neither lost nor fatal.
        let signals: AsyncStream<Int32>
        do {
            signals = try Signals.install()
        } catch {
            logger.error("\(error)")
            server.stop()
            return .osError
        }
        // English on purpose: the daemon's journal lines
        logger.log(.info, "quoted \(QuotedVersion.current) started: store \(storePath), control socket \(socketPath), "
                   + Plural.count(configuration.enabledSources.count, "source") + " enabled", event: .daemonStarted)
        notifier.ready()
        switch await daemon.run(signals: signals, server: server) {
        case .signal, .cancelled: return .success
        case .signalsLost: return .software
        }
    }

    /// The configuration's warnings, and a fleet that nothing would sync.
    private static func warn(about configuration: Configuration, to logger: Logger) {
        for warning in configuration.warnings { logger.warning(warning) }
        if configuration.fleet != nil, configuration.enabledSources.isEmpty {
            // The daemon schedules the feed through the sources it syncs: with none, nothing would.
            // English on purpose: the daemon's journal lines
            logger.warning("[fleet] is set but no source is enabled: the feed is synced with each source's sync, so nothing "
                           // English on purpose: the daemon's journal lines
                           + "will sync; enable a source (it comes from the hub) or run quoted sync --once from a timer")
        }
    }

    /// `[metrics] textfile`, its folder checked: one that is not there or takes no file stops the start.
    private static func metricsTextfile(_ configuration: Configuration, logger: Logger) -> Result<MetricsTextfile?, ConfigurationProblem> {
        do {
            return .success(try MetricsTextfile.checked(configuration.metrics.textfile))
        } catch {
            logger.error("\(error)")
            return .failure(error)
        }
    }

    /// Opens (or creates) the store and reads what the daemon keeps there; the exit status if that fails.
    private static func prepare(_ daemon: Daemon, storePath: String, logger: Logger) async -> ExitCode? {
        do {
            try await daemon.prepare()
            return nil
        } catch let error as StoreError {
            logger.error("\(error)")  // it names the store's path itself
            return error.exitCode
        } catch {
            logger.error("store \(storePath): \(error)")
            return .ioError
        }
    }

    /// Listens on the control socket; the exit status if it cannot.
    private static func start(_ server: ControlServer, socketPath: String, logger: Logger) -> ExitCode? {
        do {
            try server.start()
            return nil
        } catch {
            // A user's daemon that fell back on the system service's folder: say what to set.
            let hint = socketPath.hasPrefix(Locations.systemSocketFolder + "/") && CurrentProcess.userID != 0
                // English on purpose: the daemon's journal lines
                ? " (as a user, run it where XDG_RUNTIME_DIR is set — a login session, systemctl --user — or set [daemon] socket)" : ""
            // English on purpose: the daemon's journal lines
            logger.error("control socket: \(error)\(hint)")
            return error.exitCode
        }
    }
}
