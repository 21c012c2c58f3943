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
    let feed: FeedTrust?
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
            let trusted = store.feedTrust
            return try fleet.name.map { try trusted.trust(name: $0) } ?? trusted.feeds().first
        } ?? nil
        self.feed = feed
        let fed = Set(try fleet.map { fleet in
            try store.feedState.fedSources(manifestURL: fleet.manifestURL).map(\.name)
        } ?? [])
        sources = try store.status.sources().map { source in
            var shown = source
            shown.nextDue = Self.nextDue(source, daemon: daemon, configuration: configuration, now: now)
            shown.fromHub = fed.contains(source.name)
            shown.feedGenerated = shown.fromHub ? feed?.generated : nil
            shown.feedValidUntil = shown.fromHub ? feed?.validUntil : nil
            shown.disabled = (configuration ?? .defaults).source(named: source.name).map { !$0.enabled } ?? false
            shown.configured = Self.configured(shown, configuration: configuration)
            // A list imported and then named in the configuration is the configuration's now.
            if shown.configured { shown.imported = false }
            return shown
        }
    }

    /// Whether quoted syncs the source (`--json`'s "configured"): as the configuration says;
    /// without one, a fixed source as the defaults say and a list as the store last recorded it.
    private static func configured(_ source: SourceStatus, configuration: Configuration?) -> Bool {
        if source.name == SourceName.builtin { return true }
        if let configuration { return configuration.syncs(source.name, fromHub: source.fromHub) }
        return SourceName.listName(of: source.name) != nil ? source.configured : !source.disabled
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
        Output.safeLine(tr("Store: \(storePath)"))
        var table = Table([.init(tr("SOURCE")), .init(tr("HOLDS"), .wrap), .init(tr("LAST SUCCESS"), .wrap), .init(tr("NEXT DUE"))],
                          headerWhenPiped: true)
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
        var parts = quoteless ? [] : [trn(source.quotes, "\(source.quotes) quote", "\(source.quotes) quotes")]
        for other in source.otherRows where other.count > 0 || parts.isEmpty {
            parts.append(Self.rows(other.count, label: other.label))
        }
        let success = source.lastSuccess.map { "\(UnixTime.localTimestamp($0)) (\(UnixTime.relativeForPeople($0, now: now)))" }
        let next = source.nextDue.map { UnixTime.relativeForPeople($0, now: now) } ?? "-"
        return [source.name, parts.joined(separator: ", "), success ?? Self.unsynced(source), next]
    }

    /// The LAST SUCCESS of a source that has none: why, in a word.
    private static func unsynced(_ source: SourceStatus) -> String {
        if source.name == SourceName.builtin { return tr("built in") }
        if source.disabled { return tr("disabled") }
        // TRANSLATORS: the last success of a list quotectl import made: no sync fetches it.
        if source.imported { return tr("imported") }
        return tr("never")
    }

    /// "3 markets", "1 observation": a count of the rows a source brought other than quotes,
    /// `label` the store's name for them (its table, plural).
    static func rows(_ count: Int, label: String) -> String {
        switch label {
        case "characters": return trn(count, "\(count) character", "\(count) characters")
        case "deaths": return trn(count, "\(count) death", "\(count) deaths")
        case "markets": return trn(count, "\(count) market", "\(count) markets")
        case "observations": return trn(count, "\(count) observation", "\(count) observations")
        default: return counted(count, String(label.dropLast()), plural: label)
        }
    }

    /// What a row's columns do not say: the hub, sampling, the last attempt and error, a source gone from the configuration.
    private func notes(_ source: SourceStatus) -> [String] {
        let fleet = configuration?.fleet
        var notes: [String] = []
        if source.fromHub, let fleet {
            let hub = URLText.redacted(fleet.hub)
            notes.append(source.feedGenerated.map {
                tr("from the hub \(hub), feed written \(UnixTime.localTimestamp($0)) (\(UnixTime.relativeForPeople($0, now: now)))")
            } ?? tr("from the hub \(hub)"))
            if source.feedExpired(now: now), let until = source.feedValidUntil {
                let expired = UnixTime.relativeForPeople(until, now: now), validUntil = UnixTime.localTimestamp(until)
                notes.append(Style.yellow(tr("the feed's manifest expired \(expired) (valid until \(validUntil)): its data is stale, however the server answers")))
            }
        }
        if let estimate = source.poolEstimate, estimate.observed > 0 {
            let observed = estimate.observed
            let share = Int((Double(observed) / estimate.estimated * 100).rounded(.down)), estimated = Int(estimate.estimated.rounded())
            notes.append(trn(observed, "sampled: \(observed) quote, ~\(share)% of an estimated \(estimated)",
                             "sampled: \(observed) quotes, ~\(share)% of an estimated \(estimated)"))
        }
        if let attempt = source.lastAttempt, attempt != source.lastSuccess {
            notes.append(tr("last attempt: \(UnixTime.localTimestamp(attempt)) (\(UnixTime.relativeForPeople(attempt, now: now)))"))
        }
        if let error = source.lastError {
            let failures = source.consecutiveFailures
            var detail = failures > 1 ? tr("last error: \(TerminalSanitizer.clean(error)) (\(failures) failures in a row)")
                : tr("last error: \(TerminalSanitizer.clean(error))")
            if let retry = source.retryAfter, retry > now { detail += tr("; upstream asked to wait until \(UnixTime.localTimestamp(retry))") }
            notes.append(Style.yellow(detail))
        }
        // A list the configuration no longer names (a disabled source or an imported list is not one).
        if !source.configured && !source.fromHub && !source.disabled && !source.imported {
            let list = SourceName.listName(of: source.name) ?? source.name
            notes.append(tr("no longer in the config: kept until 'quotectl forget \(list)'"))
        }
        // On a spoke, a source that would come from the hub but never has: its feed does not hold it.
        if let fleet, !source.fromHub, source.lastAttempt == nil, feed != nil,
           let settings = configuration?.source(named: source.name), settings.enabled, !settings.urlIsOwn {
            let hub = URLText.redacted(fleet.hub)
            notes.append(tr("not in the hub's feed \(hub): not synced here (never fetched from its upstream)"))
        }
        return notes
    }
}
