import QuoteBase
import QuoteCommandLine

/// quotectl(1): the commands and options from the spec, the rest written here once.
enum Manual {
    static func quotectl(_ program: ProgramSpec) -> String {
        ManPage.forProgram(program, section: 1, description: [
            tr("quotectl reads the store that quoted(8) keeps fresh: a random quote, the quote of the day, a full-text search, the Breaking Bad characters and deaths, the Upbit markets and the weather, all at once and with no network."),
            tr("Text from upstreams is untrusted: terminal escape sequences, other control characters and bidi overrides are stripped before anything is printed; JSON output keeps them, escaped as \\uXXXX."),
        ], extra: [
            (tr("EXIT STATUS"), ManPage.list([
                ("0", tr("Success.")), ("64", tr("A usage mistake (an unknown option, a missing value).")),
                ("65", tr("Bad input data: a malformed or too large file.")),
                ("66", tr("Nothing found, or no input: no quote matches, a missing file, a device given as a file.")),
                ("69", tr("No daemon answers and no quoted program to sync with; with --notify, no session bus, no notify-send, or no notification server that answered within 5 seconds; quotectl next with no follower running.")),
                ("73", tr("No store, and none can be created there (a read-only folder).")),
                ("74", tr("The store is unreadable, read-only, damaged or not a quoted store, or the disk is full.")),
                ("75", tr("A temporary failure: a sync failed, the store was busy, another quotectl held this user's state (like, hide) for more than 2 seconds.")),
                ("77", tr("The control socket refused this user.")), ("78", tr("The configuration is wrong.")),
                ("0 1 2 3", tr("quotectl check alone follows the monitoring plugins' convention instead: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN — a missing or unreadable store, a bad configuration and a usage mistake (not 64) included, with one QUOTED UNKNOWN line on standard output.")),
            ])),
            (tr("ENVIRONMENT"), ManPage.list([
                ("QUOTED_DB", tr("The store, as --db gives it.")), ("QUOTED_CONFIG", tr("The daemon's configuration, as --config gives it.")),
                ("XDG_DATA_HOME", tr("Where a user's store lives (quoted/quotes.db; default ~/.local/share).")),
                ("XDG_CONFIG_HOME", tr("Where a user's configuration lives (quoted/quoted.conf; default ~/.config).")),
                ("XDG_RUNTIME_DIR", tr("Where a user's daemon listens (quoted/control.sock), where followers register for quotectl next (quoted/followers), and the session bus --notify falls back to (bus).")),
                ("XDG_STATE_HOME", tr("Where this user's own state lives (quoted/; default ~/.local/state): what --unseen and --once-per remember was shown, the liked and hidden quotes.")),
                ("XDG_SESSION_ID", tr("The login session random --once-per session counts (else the kernel's audit session, else the boot).")),
                ("NO_COLOR", tr("Set (to anything): no colour unless --color always.")),
                ("PAGER", tr("The pager for long output on a terminal (default less, with LESS=FRX unless LESS is set); cat turns paging off.")),
                ("LESS", tr("Options for less; when unset, quotectl sets FRX.")),
                ("TZ", tr("The time zone times are shown in (JSON keeps UTC epoch seconds).")),
                ("DBUS_SESSION_BUS_ADDRESS", tr("The session bus --notify shows its notification on (without it, $XDG_RUNTIME_DIR/bus; with neither, exit 69).")),
            ])),
            (tr("FILES"), ManPage.list([
                ("/var/lib/quoted/quotes.db", tr("The system service's store (readable by group quoted).")),
                ("/etc/quoted/quoted.conf", tr("The system configuration; see quoted.conf(5).")),
                ("/run/quoted/control.sock", tr("The system daemon's control socket.")),
                ("/usr/lib/systemd/user/quoted-notify.timer", tr("Shows the quote of the day as a desktop notification once a day (00:30 UTC, after the happiness quote changes; a missed day at the next start). Shipped disabled; each user enables it with systemctl --user enable --now quoted-notify.timer.")),
                // English on purpose: the files' paths.
                ("$XDG_STATE_HOME/quoted/liked, hidden", tr("The quotes this user liked and hid, one JSON object per line, each with its source, upstream id and text: private (0600), never in the store. A file quotectl cannot read whole is named and never written over (exit 74).")),
                ("$XDG_STATE_HOME/quoted/shown", tr("The last quotes shown to this user, with the time and the login session XDG_SESSION_ID names: what like and hide take without an ID.")),
                ("$XDG_STATE_HOME/quoted/greeted", tr("The last greetings random --once-per gave this user, with the time, boot and session: what --once-per asks (no other quote shown counts).")),
            ])),
            // English on purpose: example commands, as typed.
            (tr("EXAMPLES"), """
                .EX
                quotectl random \\-\\-lang ko \\-\\-max\\-length 40
                quotectl search courage
                quotectl export \\-\\-format fortune > q && strfile q && fortune q
                quotectl check \\-\\-critical\\-after 2h
                quotectl status \\-\\-format prometheus | promtool check metrics
                quotectl sync \\-\\-now \\-\\-source upbit
                quotectl random \\-\\-short \\-\\-format tmux \\-\\-max\\-width 60
                quotectl export \\-\\-format json | quotectl import \\- \\-\\-name copy
                systemctl \\-\\-user enable \\-\\-now quoted\\-notify.timer
                quotectl hide; quotectl like 17; quotectl random \\-\\-liked
                quotectl random \\-\\-short \\-\\-once\\-per day
                .EE
                """),
            // English on purpose: the names of other pages, in roff.
            (tr("SEE ALSO"), ".BR quoted (8),\n.BR quoted.conf (5),\n.BR fortune (6)"),
        ]).rendered
    }
}
