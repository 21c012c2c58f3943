import QuoteScheduling

/// The kinds of event whose journal entries carry a MESSAGE_ID of their own, so that
/// `journalctl MESSAGE_ID=…` finds every one of a kind. Each ID was made once at random (the
/// way `systemd-id128 new` makes one) and never changes: administrators keep queries on them.
public enum LogEvent: String, CaseIterable, Sendable {
    case syncOK = "725c0403c8c746ca886ce4e25733edcf"
    case syncUnchanged = "95f33297ad724ddbaffdad28e7622727"
    case syncFailed = "b82b703c58494101a909d2682da06d4e"
    case daemonStarted = "841ef77305944729bfbebbb509664014"
    case daemonStopped = "8d7a1f5477934ad2b9173c1c76db78f7"
    case reloadDone = "70059a6f281f4e019853b01794de3549"
    case reloadRefused = "1c678ec6ce4c4e89810a85208d34ce50"
    case feedPublished = "d686e9242e1142c89288c3aa1b2a6008"

    public var messageID: String { rawValue }

    /// What an entry of this kind says, for the manual.
    public var meaning: String {
        switch self {
        case .syncOK: return "a sync that changed rows"
        case .syncUnchanged: return "a sync that changed nothing (or was answered 304 Not Modified)"
        case .syncFailed: return "a failed sync (the next attempt's time at the end of the line)"
        case .daemonStarted: return "the daemon started"
        case .daemonStopped: return "the daemon stopped"
        case .reloadDone: return "a reload applied a new configuration"
        case .reloadRefused: return "a reload refused a configuration, keeping the running one"
        case .feedPublished: return "a hub published its feed"
        }
    }

    /// A sync's kind and fields: QUOTED_SOURCE, QUOTED_RESULT (ok, unchanged or failed),
    /// QUOTED_ROWS_CHANGED and, when there was a response, QUOTED_HTTP_STATUS.
    public static func sync(_ report: SourceReport) -> (event: LogEvent, fields: [(name: String, value: String)]) {
        let event: LogEvent = !report.ok ? .syncFailed
            : report.counts.changed == 0 || report.httpStatus == 304 ? .syncUnchanged : .syncOK
        let result = event == .syncFailed ? "failed" : event == .syncUnchanged ? "unchanged" : "ok"
        var fields = [(name: "QUOTED_SOURCE", value: report.source), ("QUOTED_RESULT", result),
                      ("QUOTED_ROWS_CHANGED", String(report.counts.changed))]
        if let status = report.httpStatus { fields.append(("QUOTED_HTTP_STATUS", String(status))) }
        return (event, fields)
    }
}
