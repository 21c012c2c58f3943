import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteControl
import QuoteText

/// `quoted reload [--config PATH]`: asks the running daemon to re-read its configuration and
/// waits for the verdict — the unit's ExecReload=, so `systemctl reload quoted` fails when the
/// daemon refuses the file (SIGHUP's refusal reaches the journal only).
enum ReloadCommand {
    static func run(_ words: [String]) -> ExitCode {
        let arguments: Arguments
        do {
            arguments = try Arguments(words, options: reloadSpec.options + Options.global, command: "reload")
            _ = try arguments.positionals(for: reloadSpec)
        } catch {
            return usageFailure(error)
        }
        if arguments.has(Options.help) { printOut(HelpText.command(reloadSpec, in: program, width: helpWidth)); return .success }
        // The file only says where the socket is; the daemon reads its own. A file that does not
        // load (the very mistake the daemon will name) leaves the usual places to look.
        let configured = (try? ConfigFile.load(option: arguments.value(Options.config)))?.socketPath
        let answer = ReloadRequest.send(candidates: Locations.sockets(configured: configured))
        let line = TerminalSanitizer.clean(answer.message)
        if answer.code == .success {
            printOut("quoted: \(line)")
        } else {
            printError("quoted: \(line)")
        }
        return answer.code
    }
}
