import Foundation
import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteStore
import QuoteScheduling

/// The long-running scheduler: each enabled source is synced when due, one sync
/// per source at a time (different sources concurrently), next-due times kept in
/// the store so a restart catches up instead of restarting every clock. It sleeps
/// until the next due time or a command, and reports to systemd as it goes.
public actor Daemon {
    private var configuration: Configuration
    public let storePath: String
    private let runner: any SyncRunner
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let events = EventQueue()
    private let schedule = Schedule()
    private let loadConfiguration: @Sendable () throws -> Configuration
    private let wallClock: @Sendable () -> Int
    private let storeBusyTimeout: Int32

    private var due: [String: Int] = [:]
    private var running: [String: Task<SourceReport, Never>] = [:]
    /// Whether each source's last sync succeeded, and its last failure for STATUS.
    private var lastOK: [String: Bool] = [:]
    private var lastFailure: [String: SourceReport] = [:]
    private var stopping = false
    private let startedAt = ContinuousClock.now
    private let watchdogInterval: Duration?
    private var nextWatchdog: ContinuousClock.Instant?

    public init(configuration: Configuration, storePath: String, runner: any SyncRunner, logger: Logger,
                notifier: SystemdNotifier, watchdogInterval: Duration? = nil,
                loadConfiguration: @escaping @Sendable () throws -> Configuration,
                wallClock: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) },
                storeBusyTimeout: Int32 = Store.defaultBusyTimeout) {
        self.storeBusyTimeout = storeBusyTimeout
        self.configuration = configuration
        self.storePath = storePath
        self.runner = runner
        self.logger = logger
        self.notifier = notifier
        self.watchdogInterval = watchdogInterval
        self.loadConfiguration = loadConfiguration
        self.wallClock = wallClock
    }

    /// Opens the store (creating it if needed) and plans the first syncs from the
    /// next-due times it holds.
    public func prepare() throws {
        try Store.reconcileCustomLists(configuration.customListNames, storePath: storePath)
        let store = try Store(path: storePath, access: .write)
        var stored: [String: Int] = [:]
        for entry in try store.run({ try SyncStateRepository(database: store.database).entries() }) {
            // A next due time (a backoff, a block) recorded for another URL does not carry over.
            let sameURL = configuration.source(named: entry.source).map { settings in
                entry.url.map { $0 == settings.url || $0 == URLText.redacted(settings.url) } ?? true
            } ?? true
            if sameURL, let next = entry.nextDue { stored[entry.source] = next }
            lastOK[entry.source] = entry.consecutiveFailures == 0 && entry.lastSuccess != nil
        }
        plan(stored: stored)
    }

    private func plan(stored: [String: Int]) {
        var generator = SystemRandomNumberGenerator()
        let now = wallClock()
        let fresh = configuration.enabledSources.filter { due[$0.name] == nil }
        for (name, time) in schedule.initialDue(stored: stored, sources: fresh, now: now, using: &generator) {
            due[name] = time
            logger.debug("\(name): next sync \(time <= now + 5 ? "now" : "at " + UnixTime.timestamp(time))")
        }
        let enabled = Set(configuration.enabledSources.map(\.name))
        for name in due.keys where !enabled.contains(name) { due[name] = nil }
    }

    /// The scheduler loop; returns after `stop()`.
    public func run() async {
        if let watchdogInterval { nextWatchdog = .now + watchdogInterval / 2 }
        updateStatus()
        while !stopping {
            let now = wallClock()
            for settings in configuration.enabledSources where running[settings.name] == nil {
                // Never two syncs (so never two requests) at once to one host: wait for the other.
                if let time = due[settings.name], time <= now, !hostIsBusy(settings) { start(settings) }
            }
            // Proof of progress: only this loop pets the watchdog, so a wedged loop lets systemd restart us.
            if let interval = watchdogInterval, let next = nextWatchdog, ContinuousClock.now >= next {
                notifier.watchdog()
                nextWatchdog = .now + interval / 2
            }
            var deadline: ContinuousClock.Instant?
            let waiting = configuration.enabledSources.filter { running[$0.name] == nil }.compactMap { due[$0.name] }
            if let soonest = waiting.min() { deadline = .now + .seconds(max(0, soonest - now)) }
            if let next = nextWatchdog { deadline = deadline.map { min($0, next) } ?? next }
            if await events.next(until: deadline) == .stop { break }
        }
    }

    /// Begins shutting down: running syncs are cancelled (their transactions roll back).
    public func stop() {
        guard !stopping else { return }
        stopping = true
        notifier.stopping()
        logger.info("stopping: \(running.count) sync(s) in flight abandoned")
        for task in running.values { task.cancel() }
        events.post(.stop)
    }

    /// Waits for cancelled syncs to wind down, at most `limit`.
    public func drain(limit: Duration = .seconds(8)) async {
        let tasks = Array(running.values)
        let deadline = ContinuousClock.now + limit
        for task in tasks {
            let remaining = deadline - .now
            if remaining <= .zero { break }
            _ = await withTaskGroup(of: Bool.self) { group in
                group.addTask { _ = await task.value; return true }
                group.addTask { try? await Task.sleep(for: remaining); return false }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
        }
    }

    private func hostIsBusy(_ settings: SourceSettings) -> Bool {
        let host = URLText.schemeAndHost(settings.url)?.host
        return running.keys.contains { name in
            name != settings.name && configuration.source(named: name).flatMap { URLText.schemeAndHost($0.url)?.host } == host
        }
    }

    private func start(_ settings: SourceSettings) {
        due[settings.name] = nil
        let runner = self.runner
        let configuration = self.configuration
        let task = Task { await runner.sync(settings, configuration: configuration) }
        running[settings.name] = task
        logger.debug("\(settings.name): sync started")
        Task {
            let report = await task.value
            self.finished(settings, report: report)
        }
    }

    private func finished(_ settings: SourceSettings, report: SourceReport) {
        running[settings.name] = nil
        if stopping { return }
        let now = wallClock()
        due[settings.name] = report.nextDue ?? now + settings.interval
        lastOK[settings.name] = report.ok
        if report.ok {
            lastFailure[settings.name] = nil
            logger.info(TerminalSanitizer.clean(report.progressLine))
        } else {
            lastFailure[settings.name] = report
            let next = due[settings.name].map { ", next attempt \(UnixTime.timestamp($0))" } ?? ""
            logger.log(report.isConfigurationProblem ? .error : .warning, TerminalSanitizer.clean(report.progressLine) + next)
        }
        updateStatus()
        events.post(.wake)
    }

    /// "4/5 sources fresh; upbit: HTTP 429, retry 12:04" for systemctl status.
    private func updateStatus() {
        let enabled = configuration.enabledSources
        let fresh = enabled.filter { lastOK[$0.name] == true }.count
        var text = "\(fresh)/\(enabled.count) sources fresh"
        if !running.isEmpty { text += "; syncing " + running.keys.sorted().joined(separator: ", ") }
        for settings in enabled {
            guard let failure = lastFailure[settings.name] else { continue }
            text += "; \(settings.name): " + (failure.httpStatus.map { "HTTP \($0)" } ?? String(failure.summary.prefix(40)))
            if let next = due[settings.name] { text += ", retry " + Self.clockTime(next) }
        }
        notifier.status(text)
    }

    static func clockTime(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        return Logger.pad(parts.tm_hour) + ":" + Logger.pad(parts.tm_min)
    }

    // MARK: Commands (signals and the control socket)

    /// Syncs now: the named sources, or every enabled one. A sync already running is joined.
    public func syncNow(_ names: [String]) -> (started: [(String, Task<SourceReport, Never>, Bool)], unknown: [String]) {
        let targets = names.isEmpty ? configuration.enabledSources.map(\.name) : names
        var started: [(String, Task<SourceReport, Never>, Bool)] = []
        var unknown: [String] = []
        for name in targets {
            guard let settings = configuration.source(named: name) else { unknown.append(name); continue }
            if let task = running[name] {
                started.append((name, task, true))
            } else {
                start(settings)
                started.append((name, running[name]!, false))
            }
        }
        updateStatus()
        return (started, unknown)
    }

    /// Re-reads the configuration; a bad file keeps the running one and says why.
    @discardableResult
    public func reload() async -> Result<Int, Error> {
        notifier.reloading()
        defer { notifier.ready(); updateStatus() }
        do {
            let fresh = try loadConfiguration()
            // Everything that can fail happens before anything changes: a reload is all or nothing.
            // The store may make us wait for its write lock: that wait happens on a thread of its
            // own, not on the actor (which keeps answering) nor on the shared async threads.
            let storePath = self.storePath, timeout = storeBusyTimeout
            try await Blocking.run { try Store.reconcileCustomLists(fresh.customListNames, storePath: storePath, busyTimeoutMilliseconds: timeout) }
            for warning in fresh.warnings { logger.warning(warning) }
            let previous = configuration
            configuration = fresh
            // A source pointed at another URL starts afresh: the old URL's block or backoff is not its own.
            for settings in fresh.sources {
                if let old = previous.source(named: settings.name), old.url != settings.url, running[settings.name] == nil {
                    due[settings.name] = nil
                }
            }
            plan(stored: [:])
            logger.info("configuration reloaded: \(fresh.enabledSources.count) sources enabled")
            events.post(.wake)
            return .success(fresh.enabledSources.count)
        } catch {
            logger.error("reload failed, keeping the running configuration: \(error)")
            return .failure(error)
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
                writer.send("ok", "reloaded: \(count) sources enabled")
                writer.finish(code: .success)
            case .failure(let error):
                writer.send("error", "reload failed, the running configuration stays: \(error)")
                writer.finish(code: .configuration)
            }
        case .sync(let names, let wait):
            let (started, unknown) = syncNow(names)
            if !unknown.isEmpty {
                writer.send("error", "unknown source: " + unknown.joined(separator: ", "))
            }
            for (name, _, joined) in started { writer.send(joined ? "joined" : "started", name) }
            guard wait else {
                writer.finish(code: unknown.isEmpty ? .success : .usage)
                return
            }
            var code: ExitCode = unknown.isEmpty ? .success : .usage
            await withTaskGroup(of: SourceReport.self) { group in
                for (_, task, _) in started { group.addTask { await task.value } }
                for await report in group {
                    writer.send(report.ok ? "ok" : "fail", TerminalSanitizer.clean(report.progressLine))
                    if !report.ok { code = report.isConfigurationProblem ? .configuration : code == .configuration ? code : .temporaryFailure }
                }
            }
            writer.finish(code: code)
        }
    }

    /// `daemon {...}` then one `source {...}` per configured source.
    public func statusReplies() -> [ControlReply] {
        var daemon = JSONObjectBuilder()
        daemon.add("pid", Int(getpid()))
        daemon.add("uptime", Int((ContinuousClock.now - startedAt).components.seconds))
        daemon.add("version", QuotedVersion.current)
        daemon.add("config", configuration.file)
        daemon.add("store", storePath)
        var replies = [ControlReply(kind: "daemon", text: daemon.result)]
        for settings in configuration.sources {
            var source = JSONObjectBuilder()
            source.add("source", settings.name)
            source.add("enabled", settings.enabled)
            source.add("running", running[settings.name] != nil)
            source.add("next_due", due[settings.name])
            source.add("interval", settings.interval)
            replies.append(ControlReply(kind: "source", text: source.result))
        }
        return replies
    }

}
