import QuoteBase
import QuoteCommandLine
import QuoteDaemon

extension GenerateCommand {
    /// quoted(8)'s JOURNAL section: the fields a sync's entry carries and every MESSAGE_ID, from LogEvent.
    static var journalSection: (String, String) {
        (tr("JOURNAL"), [
            ManPage.escape(tr("Under systemd, when standard error is the journal's stream (JOURNAL_STREAM names it), each event is sent to the journal's native socket with fields; if the journal refuses one, that event is written to standard error as ever. Each sync is one entry, with QUOTED_SOURCE (the source's name), QUOTED_RESULT (ok, unchanged: nothing changed or 304 Not Modified, or failed), QUOTED_ROWS_CHANGED and, when there was a response, QUOTED_HTTP_STATUS. A hub's publish is one entry with QUOTED_FEED_SERIAL. Every entry of these kinds has a MESSAGE_ID that never changes:")),
            ManPage.list(LogEvent.allCases.map { ($0.messageID, tr(declared: $0.meaning) + ".") }),
            ".PP",
            ManPage.escape(tr("For example, Upbit's syncs, the failed syncs of every source, and the reloads refused:")),
            ".EX",
            // English on purpose: commands, as typed.
            ManPage.escape("journalctl -u quoted QUOTED_SOURCE=upbit"),
            ManPage.escape("journalctl -u quoted QUOTED_RESULT=failed -o verbose"),
            ManPage.escape("journalctl MESSAGE_ID=\(LogEvent.reloadRefused.messageID)"),
            ".EE",
        ].joined(separator: "\n"))
    }

    /// LogEvent's meanings (QuoteDaemon is English by design: its lines are the journal's),
    /// marked for the catalog here for the JOURNAL section, which shows each through
    /// tr(declared:). A meaning changed there reads English until it is marked again here.
    static let eventMeanings = [
        declared("a sync that changed rows"),
        declared("a sync that changed nothing (or was answered 304 Not Modified)"),
        declared("a failed sync (the next attempt's time at the end of the line)"),
        declared("the daemon started"),
        declared("the daemon stopped"),
        declared("a reload applied a new configuration"),
        declared("a reload refused a configuration, keeping the running one"),
        declared("a hub published its feed"),
    ]
}
