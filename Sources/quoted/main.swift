import Glibc
import QuoteBase
import QuoteSync

// quoted: the sync daemon. `quoted sync --once` runs the sync engine once.

let topHelp = """
    OVERVIEW: Keep the quoted store fresh from its upstreams.

    USAGE: quoted [run] [--config PATH] [--db PATH] [--log-level LEVEL]
           quoted sync --once [<options>]

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      run                     Run the daemon in the foreground (the default).
      sync --once             Sync every enabled source once, then exit.

      See 'quoted <subcommand> --help' for detailed help.

    """

signal(SIGPIPE, SIG_IGN)
let words = Array(CommandLine.arguments.dropFirst())
let status: ExitCode
switch words.first {
case "sync":
    status = await SyncOnceCommand.run(Array(words.dropFirst()))
case "--version":
    printOut("quoted \(QuotedVersion.current)")
    status = .success
case "--help", "-h", "help":
    printOut(topHelp)
    status = .success
case "run":
    status = await RunCommand.run(Array(words.dropFirst()))
case let first? where !first.hasPrefix("-"):
    status = usageFailure(.init(message: "unknown subcommand '\(first)'", command: nil))
default:
    // No subcommand, or options only: run the daemon (`quoted --config X` is `quoted run --config X`).
    status = await RunCommand.run(words)
}
exit(status.rawValue)
