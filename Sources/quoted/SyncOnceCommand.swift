import Glibc
import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore
import QuoteSync

/// `quoted sync --once [--source NAME]... [--config PATH] [--db PATH] [--json]`
enum SyncOnceCommand {
    static let help = """
        OVERVIEW: Sync every enabled source (or the named ones) once, then exit.

        USAGE: quoted sync --once [--source NAME]... [--config PATH] [--db PATH] [--json]

        OPTIONS:
          --once                  Sync once and exit (the only mode of this command).
          --source NAME           Only this source (repeatable): happiness, breakingbad, upbit, weather, custom.NAME.
          --config PATH           The configuration file (env QUOTED_CONFIG; default: $XDG_CONFIG_HOME/quoted/quoted.conf,
                                  then /etc/quoted/quoted.conf; without one, built-in defaults); - reads it from
                                  standard input (with --config-name NAME for messages).
          --db PATH               The store (env QUOTED_DB; default: [store] path, then $XDG_DATA_HOME/quoted/quotes.db).
          --json                  Print a machine-readable summary on stdout.
          --quiet                 No progress lines on stderr (the daemon runs its syncs this way).
          -h, --help              Show help information.

        Progress goes to stderr, one line per source. Exit status: 0 when every source succeeded,
        75 when any failed (or the store was busy), 74 when the store could not be written,
        78 on a configuration error.

        """

    static func run(_ words: [String]) async -> ExitCode {
        let arguments: Arguments
        do {
            arguments = try Arguments(words, options: ["--source", "--config", "--config-name", "--db"],
                                      flags: ["--once", "--json", "--quiet", "--help"], command: "sync")
        } catch {
            return usageFailure(error)
        }
        if arguments.has("--help") { printOut(help); return .success }
        guard arguments.has("--once") else {
            return usageFailure(UsageError(message: "sync needs --once (the daemon is 'quoted run'; 'quotectl sync --now' asks it)", command: "sync"))
        }
        guard arguments.positionals.isEmpty else {
            return usageFailure(UsageError(message: "unexpected argument '\(arguments.positionals[0])'", command: "sync"))
        }
        let configuration: Configuration
        do {
            if arguments.value("--config") == "-" {
                configuration = try ConfigFile.loadStandardInput(name: arguments.value("--config-name") ?? "(standard input)")
            } else {
                configuration = try ConfigFile.load(option: arguments.value("--config"))
            }
        } catch {
            printError("quoted: \(error)")
            return .configuration
        }
        for warning in configuration.warnings { printError("quoted: warning: \(warning)") }

        var sources = configuration.enabledSources
        let named = arguments.all("--source")
        if !named.isEmpty {
            sources = []
            for name in named {
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
        let storePath = Locations.store(option: arguments.value("--db"), configured: configuration.storePath, writing: true)
        do {
            try Store.reconcileCustomLists(configuration.customListNames, storePath: storePath)
        } catch {
            printError("quoted: \(error)")
            return error.exitCode
        }
        if sources.isEmpty {
            printError("quoted: no source is enabled")
            return .success
        }
        let quiet = arguments.has("--quiet")
        let reports = await SyncEngine(storePath: storePath).sync(sources) { report in
            if !quiet { printError(TerminalSanitizer.clean(report.progressLine)) }
        }
        let ok = reports.allSatisfy(\.ok)
        if arguments.has("--json") {
            var object = JSONObjectBuilder()
            object.add("ok", ok)
            object.add("store", storePath)
            object.addRaw("sources", json: "[" + reports.map(\.json).joined(separator: ",") + "]")
            printOut(object.result)
        }
        if reports.contains(where: \.isConfigurationProblem) { return .configuration }
        // The store's own failure (74 I/O, 75 busy) says more than "a source failed".
        let storeCodes = reports.compactMap(\.storeExitCode)
        if !storeCodes.isEmpty { return storeCodes.contains(.ioError) ? .ioError : .temporaryFailure }
        return ok ? .success : .temporaryFailure
    }
}

func usageFailure(_ error: UsageError) -> ExitCode {
    printError("quoted: \(error.message)")
    printError("Try 'quoted \(error.command.map { "\($0) " } ?? "")--help' for more.")
    return .usage
}
