import Glibc
import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteHealth
import QuoteScheduling
import QuoteStore
import QuoteText
import QuoteSystem
import QuoteSystemTasks

/// The long-running scheduler: each enabled source is synced when due, one sync per source
/// at a time (different sources side by side, at most `maximumConcurrentSyncs` of them, never
/// two to one host), next-due times kept in the store so a restart catches up instead of
/// restarting every clock. It sleeps until the next due time or a command, and reports to
/// systemd as it goes.
///
/// `run` is the whole daemon as ONE task tree: the signal watcher, the control server (and
/// the answer to each request), the scheduler, and every running sync are tasks of one
/// group; stopping is cancelling that group, which cancels each sync (its child process gets
/// SIGTERM, its transaction never commits) and waits for all of them.
public actor Daemon {
    var configuration: Configuration
    public let storePath: String
    let runner: any SyncRunner
    let logger: Logger
    let notifier: SystemdNotifier
    let wakeup = Wakeup()
    let relay = ProgressRelay()
    let schedule = Schedule()
    let loadConfiguration: @Sendable () throws -> Configuration
    /// Unix time, for due times (kept in the store, shown to people).
    let wallClock: @Sendable () -> Int
    /// Monotonic time, for every wait: the next wake-up, the watchdog, the shutdown grace.
    let clock: any SleepingClock
    let storeBusyTimeout: Int32

    /// Each source's due time, run, request and recent outcomes, by name.
    var sourceStates: [String: SourceState] = [:]
    /// Where the daemon is in its life.
    var state = State.running
    /// The wall and monotonic clocks at the scheduler's last wake-up: a jump between them is a clock correction.
    var lastWake: (wall: Int, monotonic: Duration)?
    /// Clients waiting for a sync's report, by ticket; a report that arrives before its
    /// client asks is kept under the ticket.
    var tickets: [Int: Ticket] = [:]
    var nextTicket = 0
    /// The clients waiting now, each answered once: by the actor, or by its task's cancellation.
    let waiters = ReportWaiters()
    let startedAt: Duration
    /// When the daemon started, in Unix seconds (for the metrics).
    let startedWall: Int
    /// Syncs that ended since the daemon started (for the metrics).
    var syncsRun = 0
    /// The sources as the last health reading found them: the status line's ground.
    var health: [SourceHealth] = []
    /// Orders the readings, and which of them `health` is.
    let readingOrder = ReadingOrder()
    var appliedReading = 0
    /// The status line last sent: the same line is not sent again.
    var lastStatus: String?
    /// Where the metrics go, when `[metrics] textfile` is set (a reload may change it).
    var textfile: MetricsTextfile?
    let watchdogInterval: Duration?
    var nextWatchdog: Duration?
    /// Reloads asked for, and the last one applied (numbered in order): a reload is applied only
    /// when no later one was, and each sync knows the configuration it was started with.
    var reloadsAsked = 0
    var appliedReload = 0
    /// The custom lists the last reload applied names, still to be marked in the store
    /// (`markLists`); and whether the marking runs now.
    var listsToMark: [String]?
    var markingLists = false

    public init(configuration: Configuration, storePath: String, runner: any SyncRunner, logger: Logger,
                notifier: SystemdNotifier, watchdogInterval: Duration? = nil,
                loadConfiguration: @escaping @Sendable () throws -> Configuration,
                wallClock: @escaping @Sendable () -> Int = { UnixTime.now() },
                clock: any SleepingClock = SystemClock(),
                storeBusyTimeout: Int32 = Store.defaultBusyTimeout, textfile: MetricsTextfile? = nil) {
        self.storeBusyTimeout = storeBusyTimeout
        self.textfile = textfile
        self.startedWall = wallClock()
        self.configuration = configuration
        self.storePath = storePath
        self.runner = runner
        self.logger = logger
        self.notifier = notifier
        self.watchdogInterval = watchdogInterval
        self.loadConfiguration = loadConfiguration
        self.wallClock = wallClock
        self.clock = clock
        self.startedAt = clock.now
    }

    /// Where the daemon is in its life, as swift-service-lifecycle's ServiceGroup keeps its own.
    public enum State: Sendable, Equatable {
        /// Syncs start when due or asked for.
        case running
        /// A stop was asked for: the syncs running may finish, nothing new starts.
        case stopping
        /// The scheduler has ended, and every sync with it.
        case stopped
    }

    /// Stopping or stopped: nothing new starts, and nobody may wait for a sync that will not run.
    var isStopping: Bool { state != .running }

    /// What the daemon knows of `name` (nothing yet: a fresh state).
    func sourceState(_ name: String) -> SourceState { sourceStates[name] ?? SourceState() }

    /// The sources syncing now, sorted.
    var runningSources: [String] { sourceStates.filter(\.value.running).keys.sorted() }

    /// Opens the store (creating it if needed) and plans the first syncs from the
    /// next-due times it holds.
    public func prepare() async throws {
        // SQLite may wait for another process's lock: on a thread of its own, not on the actor.
        let names = configuration.customListNames, storePath = self.storePath, timeout = storeBusyTimeout
        let reading = healthReading()
        let (entries, health) = try await BlockingWork.perform {
            try Store.reconcileCustomLists(names, storePath: storePath, busyTimeoutMilliseconds: timeout)
            let store = try Store(path: storePath, access: .write, busyTimeoutMilliseconds: timeout)
            return (try store.syncState.entries(), reading.take(from: store))
        }
        apply(health)
        var stored: [String: Int] = [:]
        for entry in entries {
            // A next due time (a backoff, a block) recorded for another URL does not carry over.
            let sameURL = configuration.source(named: entry.source).map { settings in
                entry.url.map { $0 == settings.url || $0 == URLText.redacted(settings.url) } ?? true
            } ?? true
            if sameURL, let next = entry.nextDue {
                stored[entry.source] = next
                if entry.isBlock { sourceStates[entry.source, default: SourceState()].blocked = true }
            }
            sourceStates[entry.source, default: SourceState()].failures = entry.consecutiveFailures
        }
        plan(stored: stored)
    }

    func plan(stored: [String: Int]) {
        var generator = SystemRandomNumberGenerator()
        let now = wallClock()
        let fresh = configuration.enabledSources.filter { sourceState($0.name).due == nil }
        // A time stored under a wrong clock (a year ahead, 9999) is not trusted.
        var trusted: [String: Int] = [:]
        for settings in fresh {
            if let time = stored[settings.name] {
                trusted[settings.name] = schedule.trusted(time, of: settings, now: now, blocked: sourceState(settings.name).blocked)
            }
        }
        // Overdue sources are due at once, not spread: the limit on syncs side by side bounds a
        // first round, and no sync waits on another's network (each takes its writer's turn
        // for its write alone).
        for (name, time) in schedule.initialDue(stored: trusted, sources: fresh, now: now, spacing: 0, using: &generator) {
            sourceStates[name, default: SourceState()].due = time
            logger.debug("\(name): next sync \(time <= now + 5 ? "now" : "at " + UnixTime.timestamp(time))")
        }
        let enabled = Set(configuration.enabledSources.map(\.name))
        for name in sourceStates.keys where !enabled.contains(name) { sourceStates[name]?.due = nil }
    }

    // MARK: The task tree

    /// Why `run` returned.
    public enum Stop: Sendable, Equatable {
        /// SIGTERM or SIGINT: a clean stop.
        case signal(Int32)
        /// The signal stream ended with no stop signal: signals can no longer reach the daemon,
        /// which must not go on running deaf to SIGTERM.
        case signalsLost
        /// The calling task was cancelled.
        case cancelled
    }

    /// Runs the daemon until SIGTERM or SIGINT arrives on `signals` (or the calling task is
    /// cancelled): signals, the control server and the scheduler with its syncs, in one group.
    /// A stop lets running syncs finish for `shutdownGrace`, then cancels them.
    @discardableResult
    public func run(signals: AsyncStream<Int32>? = nil, server: ControlServer? = nil) async -> Stop {
        let stop = await withTaskGroup(of: Stop?.self) { group -> Stop in
            if let signals { group.addTask { await self.watch(signals) } }
            if let server { group.addTask { await server.serve { request, writer in await self.handle(request, writer) }; return nil } }
            group.addTask { await self.scheduleSyncs(); return nil }
            // The first task to end — the signal watcher, on a stop signal — ends them all.
            let first = await group.next() ?? nil
            let stop = Task.isCancelled ? Stop.cancelled : first ?? .cancelled
            await stopping(stop)
            group.cancelAll()
            return stop
        }
        logger.log(.info, "stopped", event: .daemonStopped)
        return stop
    }

    /// How long a stop waits for running syncs before cancelling them (their children get
    /// SIGTERM, then SIGKILL after 8 s: within the unit's TimeoutStopSec of 15 s).
    public static let shutdownGrace = Duration.seconds(5)

    func stopping(_ stop: Stop) async {
        if state == .running { state = .stopping }
        waiters.daemonStops()
        notifier.stopping()
        if stop == .signalsLost { logger.error("the signal stream ended: stopping rather than run deaf to SIGTERM") }
        answerWaitingTickets(idleOnly: true)
        let inFlight = runningSources.count
        guard inFlight > 0, stop != .cancelled else {
            logger.info("stopping: no sync in flight")
            return
        }
        let deadline = clock.now + Self.shutdownGrace
        while !runningSources.isEmpty && clock.now < deadline {
            try? await clock.sleep(for: .milliseconds(50))
        }
        let stillRunning = runningSources
        if stillRunning.isEmpty {
            logger.info("stopping: the \(inFlight) sync(s) in flight finished within \(Self.shutdownGrace)")
        } else {
            logger.warning("stopping: \(stillRunning.count) of \(inFlight) sync(s) still running after \(Self.shutdownGrace): "
                           + "stopped (\(stillRunning.joined(separator: ", ")) wrote nothing)")
        }
    }

    /// Returns on SIGTERM or SIGINT, or when the stream ends without one; SIGHUP reloads,
    /// SIGUSR1 syncs every source now.
    func watch(_ signals: AsyncStream<Int32>) async -> Stop {
        for await number in signals {
            switch number {
            case SIGTERM, SIGINT: return .signal(number)
            case SIGHUP: await reload()
            case SIGUSR1: _ = syncNow([])
            default: continue
            }
        }
        return Task.isCancelled ? .cancelled : .signalsLost
    }

    /// The scheduler: starts what is due as child tasks, sleeps until the next due time, a
    /// watchdog ping or a command. Cancelled, it cancels its syncs and waits for them.
    func scheduleSyncs() async {
        if let watchdogInterval { nextWatchdog = clock.now + watchdogInterval / 2 }
        updateStatus()
        await withDiscardingTaskGroup { syncs in
            while !Task.isCancelled {
                replanAfterAClockJump()
                startDue(in: &syncs)
                startListMarking(in: &syncs)
                // Proof of progress: only this loop pets the watchdog, so a wedged loop lets systemd restart us.
                if let interval = watchdogInterval, let next = nextWatchdog, clock.now >= next {
                    notifier.watchdog()
                    nextWatchdog = clock.now + interval / 2
                    // Freshness changes with time alone (a source held back by a long block goes
                    // stale without a sync ending): the status line follows at each ping.
                    updateStatus()
                }
                await wakeup.wait(until: nextDeadline(), on: clock)
            }
        }
        // Every sync has ended; nobody may wait for a report that will never come.
        state = .stopped
        if listsToMark != nil { logger.info("stopping: the last reload's custom lists were not marked in the store; the next start marks them") }
        waiters.daemonStops()
        answerWaitingTickets()
    }


    /// At each wake-up: when the wall clock moved more or less than the monotonic one since the
    /// last (NTP correcting a bad RTC, a suspended VM, an administrator's `date -s`), due times
    /// made under the old clock are checked again — a time now beyond its horizon comes back to
    /// one interval from now, a time now past is due.
    func replanAfterAClockJump() {
        let wall = wallClock(), monotonic = clock.now
        defer { lastWake = (wall, monotonic) }
        guard let last = lastWake else { return }
        let elapsed = (monotonic - last.monotonic).components.seconds
        let jump = (wall - last.wall).subtractingReportingOverflow(Int(elapsed)).partialValue
        guard abs(jump) >= Self.clockJumpThreshold else { return }
        logger.warning("the wall clock jumped by \(jump) s; re-planning every source")
        for settings in configuration.enabledSources {
            guard let time = sourceState(settings.name).due else { continue }
            let trusted = schedule.trusted(time, of: settings, now: wall, blocked: sourceState(settings.name).blocked)
            if trusted != time {
                sourceStates[settings.name]?.due = trusted
                logger.info("\(settings.name): next sync \(UnixTime.timestamp(trusted)) (was \(UnixTime.timestamp(time)))")
            }
        }
    }

    /// Smaller steps are NTP slewing and scheduling noise, not a correction.
    static let clockJumpThreshold = 60

    /// How many syncs the schedule runs side by side (each a child process with its transfers; a
    /// million-quote list's takes ~70 MB): a first round starts this many due sources at once, the
    /// rest as those end.
    static let maximumConcurrentSyncs = 4
    /// How many more a sync asked for (`quotectl sync --now`, SIGUSR1) may start beside those,
    /// its host permitting: a person waits for it, and a slow upstream's sync must not keep it
    /// waiting; `sync --now` of every source still starts at most this many more at once.
    static let askedReserve = 4

    func startDue(in syncs: inout DiscardingTaskGroup) {
        // Stopping: what runs may finish, nothing new starts.
        guard !isStopping else { return }
        let now = wallClock()
        let asked = Set(sourceStates.filter(\.value.requested).keys)
        for name in asked { sourceStates[name]?.requested = false }
        for settings in configuration.enabledSources + configuration.sources.filter({ !$0.enabled && asked.contains($0.name) })
        where !sourceState(settings.name).running {
            let isDue = sourceState(settings.name).due.map { $0 <= now } ?? false
            let running = runningSources.count
            let startable = asked.contains(settings.name) ? running < Self.maximumConcurrentSyncs + Self.askedReserve
                : isDue && running < Self.maximumConcurrentSyncs
            // Never two syncs (so never two requests) at once to one host: wait for the other.
            guard startable, !hostIsBusy(settings) else {
                if asked.contains(settings.name) { sourceStates[settings.name]?.requested = true }
                continue
            }
            sourceStates[settings.name, default: SourceState()].due = nil
            sourceStates[settings.name, default: SourceState()].running = true
            sourceStates[settings.name, default: SourceState()].startedUnder = appliedReload
            logger.debug("\(settings.name): sync started")
            let runner = self.runner, configuration = self.configuration, relay = self.relay
            syncs.addTask {
                let report = await runner.sync(settings, configuration: configuration) { relay.send(settings.name, $0) }
                await self.finished(settings, report: report)
            }
        }
        updateStatus()
    }

    /// When the scheduler must wake next, on `clock`: the soonest due source or watchdog ping. A
    /// source due now but held back (its host busy, or the syncs at their limit) is no deadline:
    /// only a sync's end frees it, and that wakes the loop.
    func nextDeadline() -> Duration? {
        let now = wallClock()
        var deadline: Duration?
        let atLimit = runningSources.count >= Self.maximumConcurrentSyncs
        let waiting = configuration.enabledSources.filter { !sourceState($0.name).running }.compactMap { settings -> Int? in
            guard let due = sourceState(settings.name).due, due > now || !(atLimit || hostIsBusy(settings)) else { return nil }
            return due
        }
        if let soonest = waiting.min() { deadline = clock.now + .seconds(max(0, soonest - now)) }
        if let next = nextWatchdog { deadline = deadline.map { min($0, next) } ?? next }
        return deadline
    }

    func hostIsBusy(_ settings: SourceSettings) -> Bool {
        let host = URLText.schemeAndHost(settings.url)?.host
        return runningSources.contains { name in
            name != settings.name && configuration.source(named: name).flatMap { URLText.schemeAndHost($0.url)?.host } == host
        }
    }

    /// A sync reported; the daemon decides when the source is next due (the same policy
    /// `quoted sync --once` records), keeps that in the store, and hands the report on.
    func finished(_ settings: SourceSettings, report: SourceReport) async {
        sourceStates[settings.name]?.running = false
        syncsRun += 1
        deliver(report)
        guard !Task.isCancelled else { return }
        let now = wallClock()
        var generator = SystemRandomNumberGenerator()
        let previous = sourceState(settings.name).failures
        let next = schedule.nextDue(after: report, of: settings, previousFailures: previous, at: now, using: &generator)
        sourceStates[settings.name, default: SourceState()].record(report, nextDue: next)
        let (event, fields) = LogEvent.sync(report)
        if report.ok {
            logger.log(.info, TerminalSanitizer.clean(report.summaryLine), event: event, fields: fields)
        } else {
            logger.log(report.isConfigurationProblem ? .error : .warning,
                       TerminalSanitizer.clean(report.summaryLine) + ", next attempt \(UnixTime.timestamp(next))", event: event, fields: fields)
        }
        updateStatus()
        wakeup.post()
        let storePath = self.storePath, timeout = storeBusyTimeout, name = settings.name, reading = healthReading()
        do {
            let health = try await BlockingWork.perform {
                let store = try Store(path: storePath, access: .write, busyTimeoutMilliseconds: timeout)
                try store.syncState.setNextDue(source: name, next)
                return reading.take(from: store)
            }
            if apply(health) { updateStatus() }
        } catch {
            logger.warning("\(name): could not keep its next due time in the store: \(error)")
        }
    }


    /// "4 of 5 sources fresh; failing: upbit (HTTP 503 for 12 min); syncing upbit" for systemctl
    /// status: `quotectl check`'s words, from the last health reading, and what runs now.
    func updateStatus() {
        let verdict = HealthVerdict(sources: health, now: wallClock(), thresholds: HealthThresholds(configuration.check))
        var text = verdict.summary
        let running = runningSources
        if !running.isEmpty { text += "; syncing " + running.joined(separator: ", ") }
        // A line systemd did not take (its queue full) is sent again at the next chance.
        guard text != lastStatus else { return }
        if notifier.status(text) { lastStatus = text }
    }

    /// What a reading of the store's health needs, taken on the actor and used off it.
    func healthReading() -> HealthReading {
        HealthReading(scope: HealthScope(configuration), daemon: DaemonHealth(startTime: startedWall, syncsTotal: syncsRun),
                      textfile: textfile, logger: logger, order: readingOrder)
    }

    /// Keeps `taken` as the status line's ground unless a later reading is already kept (readings
    /// taken off the actor come back in any order). Whether it was kept.
    @discardableResult
    func apply(_ taken: HealthReading.Taken?) -> Bool {
        guard let taken, taken.sequence > appliedReading else { return false }
        appliedReading = taken.sequence
        health = taken.sources
        return true
    }
}
