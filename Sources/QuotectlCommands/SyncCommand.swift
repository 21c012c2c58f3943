import Glibc
import QuoteBase
import QuoteSystem
import QuoteCommandLine
import QuoteConfig
import QuoteControl
import QuoteModels
import QuoteText

let syncSpec = CommandSpec(
    name: Subcommand.sync.rawValue,
    overview: "Ask the running daemon to sync now, streaming per-source progress; with no daemon running, run `quoted sync --once` instead. Nothing waits forever: while syncing, the daemon speaks every 5 s, and one that says nothing for 15 s (5 s with --no-wait) — stopped, wedged — is given up: 'daemon not answering (pid N)', exit 75. Exit 0 when every source succeeded, 75 when any failed.",
    options: [Options.now, Options.syncSource, Options.noWait])

let syncCommand = Command(syncSpec) { arguments, context in
        guard arguments.has(Options.now) else { throw UsageError(message: tr("sync needs --now"), command: "sync") }
        _ = try arguments.positionals(for: syncSpec)
        let sources = arguments.all(Options.syncSource)
        for source in sources where SourceName.kind(of: source) == nil || SourceName.kind(of: source) == .builtin {
            throw UsageError(message: tr("'\(source)' is not a source that syncs (happiness, breakingbad, upbit, weather, custom.NAME)"),
                             command: "sync")
        }
        let configured = try context.configuration()?.socketPath
        let client: ControlClient?
        do throws(ControlClient.Failure) {
            // Waiting, the daemon speaks at least every heartbeat however long the syncs take.
            let wait = !arguments.has(Options.noWait)
            client = try ControlClient.connect(sending: .sync(sources: sources, wait: wait),
                                               candidates: Locations.sockets(configured: configured),
                                               silence: wait ? ControlProtocol.silenceLimit : ControlProtocol.quickAnswer)
        } catch .notAnswering(let pid) {
            Output.error(controlFailure(.notAnswering(pid: pid)).text)
            return .temporaryFailure
        } catch {
            Output.error(controlFailure(error).text)
            return .noPermission
        }
        guard let client else {
            return runSyncOnce(sources: sources, context: &context)
        }
        // On a terminal, a live line per running source (relayed by the daemon), each replaced by
        // its summary; otherwise exactly the summaries.
        let columns = Run.current.errorColumns
        let lines = columns > 0 ? LiveLines(descriptor: 2, width: columns) : nil
        do {
            while let reply = try client.nextReply() {
                let text = TerminalSanitizer.clean(reply.text)
                switch reply.kind {
                case "started": Output.standardError(tr("\(text): started") + "\n")
                case "joined": Output.standardError(tr("\(text): joined the sync already running") + "\n")
                case "progress":
                    guard let lines, let space = text.firstIndex(of: " ") else { continue }
                    let source = String(text[..<space])
                    lines.update(source, source + ": " + text[text.index(after: space)...])
                case "ok", "fail":
                    let source = text.prefix { $0 != ":" }
                    if let lines { lines.finish(String(source), summary: text) } else { Output.standardError(text + "\n") }
                case "error": Output.error(reply.text)
                case "end": return Int32(reply.text).map(ExitCode.init(rawValue:)) ?? .temporaryFailure
                default: continue
                }
            }
            Output.error(tr("the daemon closed the connection before finishing"))
            return .temporaryFailure
        } catch let failure as ControlClient.Failure {
            Output.error(controlFailure(failure).text)
            return .temporaryFailure
        }
}

/// Why the daemon could not be asked: English in status --json, translated where a person reads it.
func controlFailure(_ failure: ControlClient.Failure) -> Message {
    switch failure {
    case .notRunning: return declared("daemon not running")
    case .refused(let reason), .broken(let reason): return declared("control socket: \(reason)")
    case .notAnswering(let pid): return pid.map { declared("daemon not answering (pid \($0))") } ?? declared("daemon not answering")
    }
}

/// No daemon answers: become `quoted sync --once` (the binary beside quotectl, else
/// from PATH; the run's context hands over). quotectl itself never links the networking code.
func runSyncOnce(sources: [String], context: inout Context) -> ExitCode {
    let beside = CurrentProcess.executablePath().map { Path.join(Path.parent(of: $0), "quoted") }
    guard let quoted = beside.flatMap({ FileSystem.isAccessible($0, for: .execute) ? $0 : nil }) ?? programInPath("quoted") else {
        Output.error(tr("daemon not running, and no quoted binary beside quotectl or in PATH to sync with"))
        return .unavailable
    }
    Output.standardError("quotectl: " + tr("daemon not running; syncing with \(quoted) sync --once") + "\n")
    var arguments = ["quoted", "sync", "--once"]
    for source in sources { arguments += ["--source", source] }
    if let config = context.configOption { arguments += ["--config", config] }
    if let db = context.dbOption { arguments += ["--db", db] }
    Output.flush()
    return Run.current.context.handOver(quoted, arguments)
}
