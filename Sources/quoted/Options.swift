import QuoteCommandLine
import QuoteConfig
import QuoteSystem

/// Every option quoted takes, each declared once.
enum Options {
    static let config = TypedOption.text("config", "PATH", completion: .file,
                                          help: "The configuration file (env QUOTED_CONFIG; default: $XDG_CONFIG_HOME/quoted/quoted.conf, then /etc/quoted/quoted.conf; without one, built-in defaults). For sync, - reads it from standard input.")
    static let db = TypedOption.text("db", "PATH", completion: .file,
                                      help: "The store (env QUOTED_DB; default: [store] path, the service's StateDirectory, else $XDG_DATA_HOME/quoted/quotes.db).")
    static let logLevel = TypedOption.choice("log-level", default: LogLevel.standard,
                                             help: { "\(LogLevel.choices) (default \($0)); also [daemon] log_level." })
    static let help = Option.flag("help", short: "h", help: "Show help information.")
    static let version = Option.flag("version", short: "V", help: "Show the version.")
    static let once = Option.flag("once", help: "Sync once and exit (the only mode of this command).")
    static let source = Option.value("source", "NAME", repeatable: true, completion: .sourceName,
                                     help: "Only this source (repeatable): happiness, breakingbad, upbit, weather, custom.NAME.")
    static let json = Option.flag("json", help: "Print a machine-readable summary on stdout.")
    static let quiet = Option.flag("quiet", help: "No progress lines on stderr (the daemon runs its syncs this way).")
    static let progress = Option.flag("progress", hidden: true,
                                      help: "Progress lines on stdout, for the daemon to relay (progress<TAB>SOURCE<TAB>TEXT).")
    static let timings = Option.flag("timings", hidden: true, help: "Print where each sync's time went (for benchmarks).")
    static let configName = TypedOption.text("config-name", "NAME", hidden: true, help: "The name --config - is known by in messages.")

    static let metricsWrite = TypedOption.requiredText("write", "PATH", completion: .file, help: "The textfile to write (its folder must exist).")
    static let repeats = TypedOption.positiveInt("repeat", default: 1, help: { "Read and write N times, and print the mean (default \($0))." })
    static let global = [version, help]
}

let runSpec = CommandSpec(
    name: "run",
    overview: "Run the daemon in the foreground: sync each source when due, answer the control socket. SIGTERM and SIGINT stop it (exit 0), SIGHUP reloads the configuration, SIGUSR1 syncs every source now. Under systemd it speaks sd_notify (READY, STATUS, RELOADING, STOPPING, WATCHDOG) and logs with priorities.",
    options: [Options.config.option, Options.db.option, Options.logLevel.option])

let syncSpec = CommandSpec(
    name: "sync",
    overview: "Sync every enabled source (or the named ones) once, then exit. Progress goes to stderr, one line per source. Exit status: 0 when every source succeeded, 75 when any failed (or the store was busy), 74 when the store could not be written, 78 on a configuration error.",
    options: [Options.once, Options.source, Options.config.option, Options.configName.option, Options.db.option, Options.json, Options.quiet,
              Options.progress, Options.timings])

let publishSpec = CommandSpec(
    name: "publish",
    overview: "Write the whole feed of a hub ([publish] dir) from the store now: manifest.json, by-hash files and, with [publish] signing_key, manifest.json.sig. After this, every sync that changes a source publishes it. Exit 78 without [publish], 74 when the feed cannot be written.",
    options: [Options.config.option, Options.db.option])

let reloadSpec = CommandSpec(
    name: "reload",
    overview: "Ask the running daemon, over its control socket, to re-read its configuration, and wait for its verdict (the unit's ExecReload=, so systemctl reload quoted fails when the file is refused). Exit 0 when the new configuration applies; 78 with the daemon's reason (file, line, key, or a [metrics] textfile folder that is not there or not writable) when it is refused and the running one stays; 77 when this user may not (only root and the daemon's own user may); 69 when no daemon answers. --config only says where the socket is ([daemon] socket). SIGHUP reloads too, but nobody hears a refusal.",
    options: [Options.config.option])

let completionSpec = CommandSpec(
    name: "completion",
    overview: "Print the completion script for bash, zsh or fish: 'quoted completion bash > ~/.local/share/bash-completion/completions/quoted'.",
    positionals: [Positional("SHELL", completion: .choices(["bash", "zsh", "fish"]), help: "bash, zsh or fish.")], options: [])

let manualSpec = CommandSpec(
    name: "manual",
    overview: "Print a manual page in roff — quoted(8), or quoted.conf(5) with 'conf': 'quoted manual conf | man -l -'.",
    positionals: [Positional("PAGE", optional: true, completion: .choices(["quoted", "conf"]), help: "quoted (the default) or conf.")],
    options: [])

let metricsSpec = CommandSpec(
    name: "metrics", overview: "Write the metrics the daemon writes after each sync to a file now, and time it (for benchmarks).",
    options: [Options.config.option, Options.db.option, Options.metricsWrite.option, Options.repeats.option], hidden: true)

let completeSpec = CommandSpec(
    name: "__complete", overview: "Print completion candidates: the configured sources.",
    positionals: [Positional("KIND", help: "sources")], options: [Options.config.option], hidden: true)

/// Help is wrapped at the terminal's width (80 when piped).
let helpWidth: Int = {
    let columns = Descriptor.standardOutput.terminalColumns
    return columns > 0 ? columns : 80
}()

/// quoted's whole command line, declared once.
let program = ProgramSpec(
    name: "quoted", overview: "Keep the quoted store fresh from its upstreams.",
    globalOptions: Options.global, commands: [runSpec, syncSpec, publishSpec, reloadSpec, completionSpec, manualSpec, completeSpec, metricsSpec],
    defaultCommand: "run")

extension LogLevel: OptionValue {}
