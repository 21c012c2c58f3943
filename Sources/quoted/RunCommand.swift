import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteDaemon
import QuoteStore
import QuoteSync

/// `quoted [run] [--config PATH] [--db PATH] [--log-level LEVEL]`: the daemon, in the foreground.
enum RunCommand {
    static let help = """
        OVERVIEW: Run the daemon in the foreground: sync each source when due, answer the control socket.

        USAGE: quoted [run] [--config PATH] [--db PATH] [--log-level error|warning|info|debug]

        OPTIONS:
          --config PATH           The configuration file (env QUOTED_CONFIG; default: $XDG_CONFIG_HOME/quoted/quoted.conf,
                                  then /etc/quoted/quoted.conf; without one, built-in defaults).
          --db PATH               The store (env QUOTED_DB; default: [store] path, the service's StateDirectory,
                                  else $XDG_DATA_HOME/quoted/quotes.db).
          --log-level LEVEL       error, warning, info (default) or debug; also [daemon] log_level.
          -h, --help              Show help information.

        Signals: SIGTERM/SIGINT stop (exit 0), SIGHUP reloads the configuration, SIGUSR1 syncs every source now.
        Under systemd it speaks sd_notify (READY, STATUS, RELOADING, STOPPING, WATCHDOG) and logs with priorities.

        """

    static func run(_ words: [String]) async -> ExitCode {
        let arguments: Arguments
        do {
            arguments = try Arguments(words, options: ["--config", "--db", "--log-level"], flags: ["--help"], command: "run")
        } catch {
            return usageFailure(error)
        }
        if arguments.has("--help") { printOut(help); return .success }
        guard arguments.positionals.isEmpty else {
            return usageFailure(UsageError(message: "unexpected argument '\(arguments.positionals[0])'", command: "run"))
        }
        let configOption = arguments.value("--config")
        let configuration: Configuration
        do {
            configuration = try ConfigFile.load(option: configOption)
        } catch {
            printError("quoted: \(error)")
            return .configuration
        }
        let levelName = arguments.value("--log-level") ?? configuration.logLevel ?? "info"
        guard let level = Logger.Level(name: levelName) else {
            return usageFailure(UsageError(message: "--log-level takes error, warning, info or debug", command: "run"))
        }
        let logger = Logger(level: level)
        for warning in configuration.warnings { logger.warning(warning) }
        let storePath = Locations.store(option: arguments.value("--db"), configured: configuration.storePath, writing: true)
        let notifier = SystemdNotifier()
        let daemon = Daemon(
            configuration: configuration, storePath: storePath,
            runner: ChildProcessRunner(storePath: storePath),
            logger: logger, notifier: notifier, watchdogInterval: SystemdNotifier.watchdogInterval(),
            loadConfiguration: { try ConfigFile.load(option: configOption) })
        do {
            try await daemon.prepare()
        } catch let error as StoreError {
            logger.error("\(error)")  // it names the store's path itself
            return error.exitCode
        } catch {
            logger.error("store \(storePath): \(error)")
            return .ioError
        }
        let socketPath = Locations.sockets(configured: configuration.socketPath)[0]
        let server = ControlServer(path: socketPath, logger: logger)
        do {
            try server.start()
        } catch {
            logger.error("control socket: \(error)")
            return error.exitCode
        }
        // Handlers are in place before readiness is announced: an early signal is neither lost nor fatal.
        let signals = Signals.stream()
        logger.info("quoted \(QuotedVersion.current) started: store \(storePath), control socket \(socketPath), "
                    + "\(configuration.enabledSources.count) sources enabled")
        notifier.ready()
        await daemon.run(signals: signals, server: server)
        return .success
    }
}
