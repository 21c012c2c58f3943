import QuoteBase
import QuoteCommandLine
import QuoteModels
import QuoteSystem
import QuoteText

/// `--notify`: the quote shown as a desktop notification (org.freedesktop.Notifications.Notify
/// on the session bus) by Debian's notify-send, never waited on for longer than `answerDeadline`.
struct DesktopNotifier {
    /// A notification server answers in milliseconds, or within a second or two when the bus
    /// starts one for the call; one that has not answered by then is not coming (GLib's own
    /// call timeout is 25 s, too long for a timer's unit or a key binding).
    static let answerDeadline: Duration = .seconds(5)
    static let program = "notify-send"

    /// Why no notification can be shown: one line, exit 69.
    struct Unavailable: Error {
        let message: String
    }

    let executable: String

    /// A session bus and notify-send, checked before the store is read (and before `--unseen`
    /// counts a quote as seen): a cron job or an ssh session fails at once, not at a deadline.
    static func locate() throws(Unavailable) -> DesktopNotifier {
        try requireSessionBus()
        guard let executable = programInPath(program) else {
            throw Unavailable(message: tr("\(program) not found in PATH: apt install libnotify-bin"))
        }
        return DesktopNotifier(executable: executable)
    }

    /// libdbus and GLib read DBUS_SESSION_BUS_ADDRESS, and without it the per-user bus at
    /// $XDG_RUNTIME_DIR/bus. Without either there is no bus to call (GLib would try an X11
    /// autolaunch of a new one, which is never the user's notification server).
    static func requireSessionBus() throws(Unavailable) {
        if let address = Environment.variable("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return }
        if let runtime = Environment.absolutePath("XDG_RUNTIME_DIR"),
           (try? FileSystem.status(Path.join(runtime, "bus")))?.kind == .socket { return }
        throw Unavailable(message: tr("""
            no session bus: DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus socket \
            (run it in the desktop session, or as a systemd --user unit)
            """))
    }

    /// Shows `quote`; success, or one line and exit 69 when the notification was not shown.
    func show(_ quote: Quote, occasion: DesktopNotification.Occasion) -> ExitCode {
        let notification = DesktopNotification(text: quote.text, author: quote.author, language: quote.lang, occasion: occasion)
        Output.flush()
        let outcome: Subprocess.BoundedOutcome
        do {
            outcome = try Subprocess.runBounded(executable, arguments: [Self.program] + notification.notifySendArguments,
                                                environment: Environment.variables?.values, timeout: Self.answerDeadline)
        } catch {
            Output.error(tr("cannot run \(executable): \(error)"))
            return .unavailable
        }
        // Which bus it was: a stale DBUS_SESSION_BUS_ADDRESS (an old session's, in tmux) is a common cause.
        let bus = Environment.variable("DBUS_SESSION_BUS_ADDRESS").map { TerminalSanitizer.oneLine($0) }
        switch outcome {
        case .finished(.exited(0), _):
            return .success
        case .finished(let termination, let errorText):
            let said = errorText.split(whereSeparator: \.isNewline).first.map { ": " + $0 } ?? ""
            let how = Self.describe(termination)
            Output.error(bus.map { tr("the notification was not shown on \($0): \(executable) \(how)\(said)") }
                         ?? tr("the notification was not shown: \(executable) \(how)\(said)"))
            return .unavailable
        case .timedOut:
            let seconds = Self.answerDeadline.components.seconds
            Output.error(bus.map { tr("no notification server answered on \($0) within \(seconds) s (org.freedesktop.Notifications): \(executable) stopped") }
                         ?? tr("no notification server answered within \(seconds) s (org.freedesktop.Notifications): \(executable) stopped"))
            return .unavailable
        }
    }

    private static func describe(_ termination: Subprocess.Termination) -> String {
        switch termination {
        case .exited(let status): return tr("exited with status \(status)")
        case .signalled(let signal): return tr("was killed by signal \(signal)")
        case .unknown(let reason): return tr("ended, how unknown (\(reason))")
        }
    }

    /// `--notify` shows one quote instead of printing it: no output layout goes with it.
    static func checkAlone(_ arguments: Arguments, command: String) throws(UsageError) {
        let printing = [Options.json, Options.oneline].filter { arguments.has($0) }.map(\.spelling)
            + (arguments.value(Options.quoteFormat) != nil ? ["--format"] : [])
            + ((try arguments.value(Options.maxWidth)) != nil ? ["--max-width"] : [])
            + (arguments.has(Options.follow) ? ["--follow"] : []) + (arguments.has(Options.randomEvery) ? ["--every"] : [])
        if let first = printing.first {
            throw UsageError(message: tr("--notify shows the quote as a notification: it takes no \(first)"), command: command)
        }
    }
}
