import QuoteBase
import QuoteConfig
import QuoteModels
import QuoteScheduling
import QuoteStore
import QuoteText

/// What `quotectl status` shows, gathered before anything is printed: each source as the store
/// knows it, when each is next due (the daemon's plan, or the schedule's reading of the store),
/// and on a spoke which sources came from the hub and how old its feed is.
struct StatusReport {
    let storePath: String
    let now: Int
    let configuration: Configuration?
    let daemon: DaemonStatus
    /// The hub's feed this spoke trusts, if any.
    let feed: FeedTrustRepository.Trust?
    let sources: [SourceStatus]

    init(store: Store, configuration: Configuration?, now: Int) throws {
        storePath = store.path
        self.now = now
        self.configuration = configuration
        let daemon = DaemonStatus.query(configured: configuration?.socketPath)
        self.daemon = daemon
        // On a spoke: which sources came from the hub, and how old its feed is.
        let fleet = configuration?.fleet
        let feed = try fleet.map { fleet in
            let trusted = FeedTrustRepository(database: store.database)
            return try fleet.name.map { try trusted.trust(name: $0) } ?? trusted.feeds().first
        } ?? nil
        self.feed = feed
        let fed = Set(try fleet.map { fleet in
            try FeedStateRepository(database: store.database).fedSources(manifestURL: fleet.manifestURL).map(\.name)
        } ?? [])
        sources = try StatusQuery(database: store.database).sources().map { source in
            var shown = source
            shown.nextDue = Self.nextDue(source, daemon: daemon, configuration: configuration, now: now)
            shown.fromHub = fed.contains(source.name)
            shown.feedGenerated = shown.fromHub ? feed?.generated : nil
            shown.feedValidUntil = shown.fromHub ? feed?.validUntil : nil
            return shown
        }
    }

    /// With no daemon to ask, a time stored under a wrong clock is shown as the daemon will treat it.
    private static func nextDue(_ source: SourceStatus, daemon: DaemonStatus, configuration: Configuration?, now: Int) -> Int? {
        if let planned = daemon.nextDue[source.name] { return planned }
        guard let stored = source.nextDue, let settings = configuration?.source(named: source.name) else { return source.nextDue }
        return Schedule().trusted(stored, of: settings, now: now, blocked: source.retryAfter == stored)
    }

    /// The table a person reads: a row per source, its notes indented beneath it (wrapped at the
    /// terminal's width), then what the daemon says.
    func printTable() {
        Output.safeLine("Store: \(storePath)")
        var table = Table([.init("SOURCE"), .init("HOLDS", .wrap), .init("LAST SUCCESS", .wrap), .init("NEXT DUE")])
        for source in sources { table.add(row(source)) }
        let rendered = table.rendered()
        for line in rendered.header { Output.line(line) }
        for (index, lines) in rendered.rows.enumerated() {
            for line in lines { Output.line(line) }
            for note in notes(sources[index]) {
                for line in wrappedForTerminal("    " + note, indent: 2) { Output.line(line) }
            }
        }
        Output.safeLine(daemon.summary)
    }

    private func row(_ source: SourceStatus) -> [String] {
        // Upbit and weather bring no quotes: show what they do bring, even when it is 0.
        let quoteless = source.name == SourceName.upbit || source.name == SourceName.weather
        var parts = quoteless ? [] : [counted(source.quotes, "quote")]
        for other in source.otherRows where other.count > 0 || parts.isEmpty {
            parts.append(counted(other.count, String(other.label.dropLast()), plural: other.label))
        }
        let success = source.lastSuccess.map { "\(UnixTime.localTimestamp($0)) (\(UnixTime.relative($0, now: now)))" }
        let next = source.nextDue.map { UnixTime.relative($0, now: now) } ?? "-"
        return [source.name, parts.joined(separator: ", "), success ?? (source.name == SourceName.builtin ? "built in" : "never"), next]
    }

    /// What a row's columns do not say: the hub, sampling, the last attempt and error, a source gone from the configuration.
    private func notes(_ source: SourceStatus) -> [String] {
        let fleet = configuration?.fleet
        var notes: [String] = []
        if source.fromHub, let fleet {
            notes.append("from the hub \(URLText.redacted(fleet.hub))" + (source.feedGenerated.map {
                ", feed written \(UnixTime.localTimestamp($0)) (\(UnixTime.relative($0, now: now)))" } ?? ""))
            if source.feedExpired(now: now), let until = source.feedValidUntil {
                notes.append(Style.yellow("the feed's manifest expired \(UnixTime.relative(until, now: now)) (valid until \(UnixTime.localTimestamp(until))): its data is stale, however the server answers"))
            }
        }
        if let pool = source.poolText, let observed = source.poolEstimate?.observed {
            notes.append("sampled: \(counted(observed, "quote")), \(pool)")
        }
        if let attempt = source.lastAttempt, attempt != source.lastSuccess {
            notes.append("last attempt: \(UnixTime.localTimestamp(attempt)) (\(UnixTime.relative(attempt, now: now)))")
        }
        if let error = source.lastError {
            var detail = "last error: \(TerminalSanitizer.clean(error))"
            if source.consecutiveFailures > 1 { detail += " (\(source.consecutiveFailures) failures in a row)" }
            if let retry = source.retryAfter, retry > now { detail += "; upstream asked to wait until \(UnixTime.localTimestamp(retry))" }
            notes.append(Style.yellow(detail))
        }
        if !source.configured && !source.fromHub {
            notes.append("no longer in the config: kept until 'quotectl forget \(SourceName.listName(of: source.name) ?? source.name)'")
        }
        // On a spoke, a source that would come from the hub but never has: its feed does not hold it.
        if let fleet, !source.fromHub, source.lastAttempt == nil, feed != nil,
           let settings = configuration?.source(named: source.name), settings.enabled, !settings.urlIsOwn {
            notes.append("not in the hub's feed \(URLText.redacted(fleet.hub)): not synced here (never fetched from its upstream)")
        }
        return notes
    }
}
