import Foundation
import QuoteSync

// quoted: the sync daemon. `quoted sync --once` runs the sync engine once.

let topHelp = """
    OVERVIEW: Keep the quoted store fresh from its upstreams.

    USAGE: quoted <subcommand> [<options>]

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      sync --once             Sync every enabled source once, then exit.

      See 'quoted <subcommand> --help' for detailed help.

    """

signal(SIGPIPE, SIG_IGN)
let words = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch words.first {
case "sync":
    status = await SyncOnceCommand.run(Array(words.dropFirst()))
case "--version":
    printOut("quoted \(QuotedVersion.current)")
    status = 0
case "--help", "-h", "help":
    printOut(topHelp)
    status = 0
case nil:
    printOut(topHelp)
    status = usageFailure(.init(message: "missing subcommand", command: nil))
case let other?:
    status = usageFailure(.init(message: "unknown subcommand '\(other)'", command: nil))
}
exit(status)
