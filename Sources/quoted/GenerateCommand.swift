import QuoteBase
import QuoteCommandLine
import QuoteConfig

/// `quoted manual`, `quoted completion` and `quoted __complete`: quoted(8), quoted.conf(5), the
/// shell completions (from the specs and the configuration table) and the words they offer.
enum GenerateCommand {
    /// `quoted completion bash|zsh|fish`.
    static func completion(_ words: [String]) -> ExitCode {
        let shell: String
        do {
            shell = try Arguments(words, options: Options.global, command: "completion").positionals(for: completionSpec)[0]
        } catch {
            return usageFailure(error)
        }
        switch shell {
        case "bash": printOut(Completions.bash(program), newline: false)
        case "zsh": printOut(Completions.zsh(program), newline: false)
        case "fish": printOut(Completions.fish(program), newline: false)
        default:
            return usageFailure(UsageError(message: tr("unknown shell '\(shell)' (bash, zsh, fish)")
                                           + Suggestion.didYouMean(shell, among: ["bash", "zsh", "fish"]), command: "completion"))
        }
        return .success
    }

    /// `quoted manual [quoted|conf]`.
    static func manual(_ words: [String]) -> ExitCode {
        let page: String
        do {
            page = try Arguments(words, options: Options.global, command: "manual").positionals(for: manualSpec).first ?? "quoted"
        } catch {
            return usageFailure(error)
        }
        switch page {
        case "quoted": printOut(daemonManual(), newline: false)
        case "conf", "quoted.conf": printOut(configurationManual(), newline: false)
        default: return usageFailure(UsageError(message: tr("unknown page '\(page)' (quoted, conf)"), command: "manual"))
        }
        return .success
    }

    /// `quoted __complete sources`: the sources of the configuration quoted would read.
    static func complete(_ words: [String]) -> ExitCode {
        let configuration: Configuration
        do {
            let arguments = try Arguments(words, options: completeSpec.options + Options.global, command: "__complete")
            guard try arguments.positionals(for: completeSpec)[0] == "sources" else { return .usage }
            configuration = (try? ConfigFile.load(option: arguments.value(Options.config))) ?? .defaults
        } catch {
            return usageFailure(error)
        }
        for settings in configuration.sources { printOut(settings.name) }
        return .success
    }

    static func daemonManual() -> String {
        ManPage.forProgram(program, section: 8, description: [
            tr("quoted keeps a local SQLite store fresh from public HTTP APIs (custom quote lists, the Korean happiness quote of the day, the Breaking Bad API, the Upbit market list and optionally OpenWeatherMap), so that quotectl(1) answers at once with no network."),
            tr("quoted run (the default) is the daemon: each source is synced when due, with exponential backoff after failures and never before an upstream's Retry-After; each sync runs as a child quoted sync --once. quoted sync --once syncs and exits."),
            tr("A failed or partial sync leaves every stored row as it was."),
        ], extra: [
            (tr("SIGNALS"), ManPage.list([
                ("SIGTERM, SIGINT", tr("Stop: running syncs are abandoned, their transactions never commit; exit 0.")),
                ("SIGHUP", tr("Reload the configuration; a bad file keeps the running one and logs why. quoted reload does the same and also says whether it worked (systemctl reload runs it).")),
                ("SIGUSR1", tr("Sync every source now.")),
            ])),
            journalSection,
            (tr("EXIT STATUS"), ManPage.list([
                ("0", tr("Every source synced (sync), or stopped by a signal (run).")), ("64", tr("A usage mistake.")),
                ("69", tr("No daemon answered (reload).")),
                ("71", tr("The control socket could not be set up.")),
                ("73", tr("No store, and none can be created there.")),
                ("74", tr("The store could not be written (read-only, disk full, damaged, not a quoted store).")),
                ("75", tr("A source failed or the store was busy (sync); another quoted answers on the socket (run).")),
                ("77", tr("This user may not ask the daemon for a reload: only root and the daemon's own user may (reload).")),
                ("78", tr("The configuration is wrong, or [daemon] socket names something that is not a socket; the daemon refused the file, naming it, its line and its key (reload).")),
            ])),
            (tr("ENVIRONMENT"), ManPage.list([
                ("QUOTED_CONFIG", tr("The configuration file, as --config gives it.")),
                ("QUOTED_DB", tr("The store, as --db gives it.")),
                ("XDG_CONFIG_HOME, XDG_DATA_HOME", tr("Where a user's configuration (quoted/quoted.conf) and store (quoted/quotes.db) live.")),
                ("XDG_RUNTIME_DIR", tr("Where a user's daemon listens (quoted/control.sock); without it, and without [daemon] socket, /run/quoted, which only the system service may use.")),
                ("RUNTIME_DIRECTORY, STATE_DIRECTORY", tr("Set by systemd (RuntimeDirectory=, StateDirectory=): the socket's folder and the store's.")),
                ("NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID", tr("Set by systemd: where readiness, status and watchdog pings go (sd_notify(3)).")),
                ("JOURNAL_STREAM", tr("Set by systemd: log lines carry syslog priorities instead of timestamps, and when it names standard error, events go to the journal's socket with fields (see JOURNAL).")),
                ("LIBDISPATCH_LOG", tr("Unset, quoted sets it to NO: libdispatch's manager thread asks for a nice value of -4 in every process, and its refusal (an unprivileged process may not raise its priority) would be logged once per sync. YES, syslog or stderr bring libdispatch's own messages back.")),
                // English on purpose: environment variables' names
                ("https_proxy, http_proxy, no_proxy", tr("The proxy for syncs, as libcurl reads them.")),
            ])),
            (tr("FILES"), ManPage.list([
                ("/etc/quoted/quoted.conf", tr("The configuration; see quoted.conf(5).")),
                ("/var/lib/quoted/quotes.db", tr("The store of the system service.")),
                ("/run/quoted/control.sock", tr("The control socket of the system service.")),
            ])),
            // English on purpose: the names of other pages, in roff.
            (tr("SEE ALSO"), ".BR quotectl (1),\n.BR quoted.conf (5),\n.BR systemd.service (5)"),
        ]).rendered
    }

    /// quoted.conf(5): the keys, their ranges and defaults, from ConfigKey.all — the table
    /// the validator takes its keys from.
    static func configurationManual() -> String {
        var page = ManPage(name: "quoted.conf", section: 5, summary: tr("Configuration of the quoted daemon"), description: [
            tr("An INI file: [section] headers, key = value lines, comments starting with # or ; (at the start of a line, or after white space). CRLF line ends and a UTF-8 byte-order mark are fine; only a regular file of at most 1 MiB is read."),
            tr("Everything has a working default, so no file is needed. An unknown section or key, a bad value or a number out of its range is an error naming the file, the line and the key (exit 78), from quotectl config check, quoted at start-up and quoted on reload alike; a reload refused this way keeps the daemon running on its old configuration."),
            tr("Sections: [store], [daemon], [publish] (a hub), [fleet] (a spoke), [metrics] (the daemon's Prometheus textfile), [check] (quotectl check's thresholds), [source.happiness], [source.breakingbad], [source.upbit], [source.weather], and [source.custom.NAME] for each custom list."),
        ])
        func keys(_ wanted: ConfigKey.Section) -> String {
            ManPage.list(ConfigKey.all.filter { key in
                switch (key.section, wanted) {
                case (.store, .store), (.daemon, .daemon), (.publish, .publish), (.fleet, .fleet), (.metrics, .metrics), (.check, .check): return true
                case (.source(let kinds), .source(let want)): return kinds == want
                default: return false
                }
            }.map { ($0.name, tr("\($0.meaning) Default: \($0.defaultValue).")) })
        }
        page.sections = [
            ("[store]", keys(.store)), ("[daemon]", keys(.daemon)), ("[publish]", keys(.publish)), ("[fleet]", keys(.fleet)),
            ("[metrics]", keys(.metrics)),
            (tr("NODE_EXPORTER'S FOLDER"), [
                ManPage.escape(tr("Debian's prometheus-node-exporter reads /var/lib/prometheus/node-exporter/*.prom, a folder owned by root and not writable by the quoted user. Let group quoted add its own file there, once and kept across upgrades: dpkg-statoverride --update --add root quoted 1775 /var/lib/prometheus/node-exporter (the sticky bit keeps other programs' files out of its reach; with the acl package, setfacl -m u:quoted:rwx on the folder does as well). The unit quoted.service lists the folder in ReadWritePaths= (ProtectSystem=strict refuses it otherwise); another folder needs a drop-in that adds it. A reload applies a changed textfile, but the sandbox is set when the unit starts: a folder made or added to ReadWritePaths= since takes systemctl restart quoted (a reload is refused, the folder named as not writable). The file is written 0644, so node_exporter reads it whatever its user.")),
            ].joined(separator: "\n")),
            ("[check]", keys(.check)),
            (tr("WHAT A SPOKE TRUSTS"), [
                ManPage.escape(tr("Each manifest is signed inline by each of the hub's signing keys (manifest.KEYNUMBER.signed, signify's -e form: one file, so a spoke reading it while the hub publishes gets one whole version), names its feed (name), and is valid until valid_until (valid_for after it was written). A spoke takes a manifest only when it is signed by a hub_key or a key the feed announced (next_keys), names the feed the spoke follows (its [fleet] name, else the name of the first manifest it applied), is not expired, and is no older than the newest it verified. Anything else is refused with every row kept (exit 75), and so is a server's 304 for a manifest that has expired since: quotectl status shows such sources failing. A store that cannot say what it trusts syncs nothing (exit 74).")),
                ".PP",
                ManPage.escape(tr("A wrong clock, not an attack: as apt's Check-Valid-Until, the spoke compares valid_until with its own clock. A spoke whose clock runs years ahead refuses every manifest as expired and says so (and that its clock may be wrong); one running years behind accepts a manifest that expired in real time, but never one older than it has verified, so a replay still fails. Keep the clock right (systemd-timesyncd); the hub refuses to publish when its clock is behind the feed it finds.")),
                ".PP",
                ManPage.escape(tr("Rotating the hub's key, with no spoke edited:")),
                ".IP 1. 4", ManPage.escape(tr("signify-openbsd -G -n -p /etc/quoted/new.pub -s /etc/quoted/new.sec, then chown quoted and chmod 0600 the new.sec;")),
                ".IP 2. 4", ManPage.escape(tr("in [publish], signing_key = /etc/quoted/hub.sec, /etc/quoted/new.sec and next_keys = /etc/quoted/new.pub; systemctl reload quoted (spokes adopt new.pub at their next sync);")),
                ".IP 3. 4", ManPage.escape(tr("once every spoke has synced: signing_key = /etc/quoted/new.sec alone, no next_keys; systemctl reload quoted;")),
                ".IP 4. 4", ManPage.escape(tr("on new spokes, hub_key = /etc/quoted/new.pub. A spoke that slept through step 2 refuses, naming the key it trusts: add new.pub to its hub_key.")),
            ].joined(separator: "\n")),
            (tr("EVERY [source.NAME]"), keys(.source([]))),
            (tr("[source.custom.NAME] AND [source.breakingbad]"), keys(.source([.custom, .breakingbad]))),
            ("[source.custom.NAME]", keys(.source([.custom]))),
            (tr("QUOTE APIS AND FILES"), customListExamples()),
            ("[source.breakingbad]", keys(.source([.breakingbad]))),
            ("[source.weather]", keys(.source([.weather]))),
            // English on purpose: an example configuration, as written.
            (tr("EXAMPLE"), """
                .EX
                [source.custom.stoics]
                url = https://gist.githubusercontent.com/USER/GIST/raw/quotes.json
                interval = 1h

                [source.weather]
                enabled = true
                api_key_file = /etc/quoted/openweathermap.key
                .EE
                """),
            // English on purpose: the names of other pages, in roff.
            (tr("SEE ALSO"), ".BR quoted (8),\n.BR quotectl (1)"),
        ]
        return page.rendered
    }

    /// quoted.conf(5)'s custom lists in each format: three real JSON APIs with their mappings, the
    /// happiness API's shape, a fortune file, a spreadsheet's CSV and Wikiquote's feed.
    static func customListExamples() -> String {
        [
            ManPage.escape(tr("A list's keys say where its quotes are; the readers stream every format, so a list of any length syncs in the same memory. ZenQuotes answers [{\"q\": …, \"a\": …, \"h\": …}], quotable {\"results\": [{\"_id\", \"content\", \"author\", \"tags\"}], …}, DummyJSON {\"quotes\": [{\"id\", \"quote\", \"author\"}], \"total\": …}, and an API shaped like the happiness one a single object, {\"data\": {\"id\": 60, \"content\": …, \"author\": …}}: a list of one, kept as an archive (archive = true) so each day's quote stays. ZenQuotes gives no ids, so they are derived from the text (see fields).")),
            // English on purpose: an example configuration and commands, as written
            """
            .PP
            .EX
            [source.custom.zenquotes]
            url = https://zenquotes.io/api/quotes
            fields = text:q, author:a

            [source.custom.quotable]
            url = https://api.quotable.io/quotes?limit=150
            items = /results
            fields = id:_id, text:content, author:author, category:tags

            [source.custom.dummyjson]
            url = https://dummyjson.com/quotes?limit=0
            items = /quotes
            fields = id:id, text:quote, author:author

            [source.custom.daily]
            url = https://example.org/api/random-quote
            items = /data
            fields = id:id, text:content, author:author
            archive = true
            interval = 1d

            [source.custom.wisdom]
            format = fortune
            url = https://raw.githubusercontent.com/shlomif/fortune-mod/master/fortune-mod/datfiles/wisdom
            interval = 1d

            [source.custom.sheet]
            format = csv
            url = https://example.org/quotes.csv
            fields = text:Quote, author:Author, category:Topic

            [source.custom.wikiquote]
            format = atom
            url = https://en.wikiquote.org/w/api.php?action=featuredfeed&feed=qotd&feedformat=atom
            author_pattern = ~ *([^~]+[^~ ]) *~
            interval = 6h
            .EE
            """,
        ].joined(separator: "\n")
    }
}
