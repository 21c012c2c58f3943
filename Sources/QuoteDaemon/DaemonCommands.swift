import Glibc
import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteScheduling
import QuoteStore
import QuoteText
import QuoteSystem
import QuoteSystemTasks

/// The daemon's answers to commands — the control socket's requests and SIGHUP/SIGUSR1 — and
/// the tickets of clients waiting for a sync's report. The scheduling is Daemon.swift's.
extension Daemon {
    // MARK: Commands (signals and the control socket)

    /// What `syncNow` did for one source, and the ticket to wait for its report with.
    public struct Started: Sendable {
        public let source: String
        /// A sync of it was already running: this one joins it.
        public let joined: Bool
        public let ticket: Int?
    }

    /// Syncs now: the named sources, or every enabled one. A sync already running is joined,
    /// not started twice. With `wait`, each gets a ticket for `report(_:)`.
    public func syncNow(_ names: [String], wait: Bool = false) -> (started: [Started], unknown: [String]) {
        let targets = names.isEmpty ? configuration.enabledSources.map(\.name) : names
        var started: [Started] = []
        var unknown: [String] = []
        for name in targets {
            guard configuration.source(named: name) != nil else { unknown.append(name); continue }
            let joined = sourceState(name).running
            if !joined { sourceStates[name, default: SourceState()].requested = true }
            var ticket: Int?
            if wait {
                nextTicket += 1
                tickets[nextTicket] = Ticket(source: name)
                ticket = nextTicket
            }
            started.append(Started(source: name, joined: joined, ticket: ticket))
        }
        wakeup.post()
        return (started, unknown)
    }

    /// The report of the sync a ticket from `syncNow` waits for.
    public func report(_ ticket: Int) async -> SourceReport {
        if let report = tickets[ticket]?.report {
            tickets[ticket] = nil
            waiters.forget(ticket)
            return report
        }
        // A sync asked for while the daemon stops will not run: answer at once, never wait forever.
        if isStopping, let source = tickets[ticket]?.source, !sourceState(source).running {
            tickets[ticket] = nil
            return SourceReport(source: source, ok: false, summary: "cancelled: the daemon is stopping", seconds: 0)
        }
        // The client that waits hung up (its request's task is cancelled): the sync goes on, the
        // ticket goes. A stop cancels every request's task too, but answers the tickets itself
        // (`answerWaitingTickets`): a sync that finishes within the grace still reports.
        if Task.isCancelled, !isStopping { return stopWaiting(ticket) }
        let waiters = self.waiters
        let answer = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: ReportWaiters.Waiter) in
                waiters.register(ticket, waiter)
            }
        } onCancel: {
            waiters.cancel(ticket)
        }
        waiters.forget(ticket)
        guard let answer else { return stopWaiting(ticket) }
        // Answered from a report that came before the waiter: `deliver` kept it on the ticket too.
        tickets[ticket] = nil
        return answer
    }

    /// Drops the ticket of a client that left.
    func stopWaiting(_ ticket: Int) -> SourceReport {
        let left = SourceReport(source: tickets[ticket]?.source ?? "", ok: false, summary: "cancelled: the client left", seconds: 0)
        tickets[ticket] = nil
        waiters.forget(ticket)
        return left
    }

    /// Re-reads the configuration and applies it at once; a bad file keeps the running one and says
    /// why. The store's part, marking which custom lists it names, follows as work of its own
    /// (`markLists`): a list's sync holding the store never holds up a reload.
    @discardableResult
    public func reload() async -> Result<Int, Error> {
        notifier.reloading()
        defer { notifier.ready(); updateStatus() }
        reloadsAsked += 1
        let number = reloadsAsked
        do {
            let fresh = try loadConfiguration()
            // Everything that can fail happens before anything changes: a reload is all or nothing.
            // The textfile's folder is looked at on a thread of its own, not on the actor.
            let newTextfile = try await BlockingWork.perform { () throws(ConfigurationProblem) in
                try MetricsTextfile.checked(fresh.metrics.textfile)
            }
            // A later reload, which read the file after this one did, is applied already: it wins.
            guard number > appliedReload else { return .success(configuration.enabledSources.count) }
            appliedReload = number
            for warning in fresh.warnings { logger.warning(warning) }
            let previous = configuration
            configuration = fresh
            adopt(newTextfile)
            listsToMark = fresh.customListNames
            // A source pointed at another URL starts afresh: the old URL's block or backoff is not its own.
            for settings in fresh.sources {
                if let old = previous.source(named: settings.name), old.url != settings.url, !sourceState(settings.name).running {
                    sourceStates[settings.name]?.due = nil
                    sourceStates[settings.name]?.failures = 0
                }
            }
            plan(stored: [:])
            // The status line (and the textfile, when there is one) at once for the new sources and [check].
            await readHealth()
            updateStatus()
            logger.log(.info, "configuration reloaded: \(Plural.count(fresh.enabledSources.count, "source")) enabled" + listMarkingNote(),
                       event: .reloadDone)
            wakeup.post()
            return .success(fresh.enabledSources.count)
        } catch {
            logger.log(.error, "reload failed, keeping the running configuration: \(error)", event: .reloadRefused)
            return .failure(error)
        }
    }

    /// The textfile a reload accepted: the same path keeps its writer (and its once-only warning's
    /// state); another starts afresh. The file of a path left is left in place: another program
    /// may read it, and removing it is its owner's call, not the daemon's.
    func adopt(_ newTextfile: MetricsTextfile?) {
        guard newTextfile?.path != textfile?.path else { return }
        if let newTextfile {
            logger.info("metrics: written to \(newTextfile.path) from now on")
        } else if let old = textfile {
            logger.info("metrics: no longer written ([metrics] textfile is gone; \(old.path) is left as it was)")
        }
        textfile = newTextfile
    }

    /// A fresh reading of the store's health now, written to the textfile: a reload's new path
    /// (or new intervals) shows at once, not after the next sync.
    func readHealth() async {
        let storePath = self.storePath, timeout = storeBusyTimeout, reading = healthReading()
        do {
            let health = try await BlockingWork.perform {
                reading.take(from: try Store(path: storePath, access: .read, busyTimeoutMilliseconds: timeout))
            }
            apply(health)
        } catch {
            logger.warning("metrics: could not read the store: \(error)")
        }
    }

    /// Answers one control-socket request.
    public func handle(_ request: ControlRequest, _ writer: ReplyWriter) async {
        switch request {
        case .status:
            for line in statusReplies() { writer.send(line) }
            writer.finish(code: .success)
        case .reload:
            switch await reload() {
            case .success(let count):
                writer.send("ok", "reloaded: \(Plural.count(count, "source")) enabled" + listMarkingNote())
                writer.finish(code: .success)
            case .failure(let error):
                writer.send("error", "reload failed, the running configuration stays: \(error)")
                writer.finish(code: .configuration)
            }
        case .sync(let names, let wait):
            let (started, unknown) = syncNow(names, wait: wait)
            if !unknown.isEmpty {
                writer.send("error", "unknown source: " + unknown.joined(separator: ", "))
            }
            for entry in started { writer.send(entry.joined ? "joined" : "started", entry.source) }
            var code: ExitCode = unknown.isEmpty ? .success : .usage
            for entry in started { if let ticket = entry.ticket { relay.add(ticket, source: entry.source, writer: writer) } }
            let tickets = started.compactMap(\.ticket)
            await withTaskGroup(of: Void.self) { group in
                // A waiting client hears from us at least every `heartbeat`, however long the syncs
                // take: silence then means a daemon that stopped answering (SIGSTOP, wedged).
                if !tickets.isEmpty {
                    let clock = self.clock
                    group.addTask {
                        while (try? await clock.sleep(for: ControlProtocol.heartbeat)) != nil {
                            writer.send("waiting", started.map(\.source).joined(separator: " "))
                        }
                    }
                }
                for ticket in tickets {
                    let report = await report(ticket)
                    relay.remove(ticket)
                    writer.send(report.ok ? "ok" : "fail", TerminalSanitizer.clean(report.summaryLine))
                    if !report.ok { code = report.isConfigurationProblem ? .configuration : code == .configuration ? code : .temporaryFailure }
                }
                group.cancelAll()
            }
            writer.finish(code: code)
        }
    }

    /// `daemon {...}` then one `source {...}` per configured source.
    public func statusReplies() -> [ControlReply] {
        var daemon = JSONObjectBuilder()
        daemon.add("pid", Int(CurrentProcess.id))
        daemon.add("uptime", Int((clock.now - startedAt).components.seconds))
        daemon.add("started", startedWall)
        daemon.add("syncs", syncsRun)
        daemon.add("version", QuotedVersion.current)
        daemon.add("config", configuration.file)
        daemon.add("store", storePath)
        daemon.add("lists_pending", listMarkingPending)
        var replies = [ControlReply(kind: "daemon", text: daemon.result)]
        for settings in configuration.sources {
            var source = JSONObjectBuilder()
            source.add("source", settings.name)
            source.add("enabled", settings.enabled)
            source.add("running", sourceState(settings.name).running)
            source.add("next_due", sourceState(settings.name).due)
            source.add("interval", settings.interval)
            replies.append(ControlReply(kind: "source", text: source.result))
        }
        return replies
    }

    func deliver(_ report: SourceReport) {
        for (number, ticket) in tickets where ticket.source == report.source && ticket.report == nil {
            if waiters.answer(number, with: report) {
                tickets[number] = nil
            } else {
                tickets[number]?.report = report
            }
        }
    }

    /// Answers the tickets still waiting with "cancelled" (the daemon is stopping): with
    /// `idleOnly`, those whose sync is not running (a running one may still finish in the grace).
    func answerWaitingTickets(idleOnly: Bool = false) {
        for (number, ticket) in tickets where ticket.report == nil && !(idleOnly && sourceState(ticket.source).running) {
            let cancelled = SourceReport(source: ticket.source, ok: false, summary: "cancelled: the daemon is stopping", seconds: 0)
            if waiters.answer(number, with: cancelled) {
                tickets[number] = nil
            } else {
                tickets[number]?.report = cancelled
            }
        }
    }
}

/// A client waiting for the report of one source's sync (its waiter is in `ReportWaiters`).
struct Ticket {
    let source: String
    var report: SourceReport?
}
