import QuoteBase
import QuoteConfig
import QuoteScheduling
import QuoteModels
import QuoteStore
import QuoteSystem
import QuoteSystemTasks
import Synchronization

/// Runs sources: fetch and validate (the adapter), then apply everything in ONE
/// transaction with the sync state, or — on any failure — record the failure and
/// leave every stored row as it was.
public final class SyncEngine: Sendable {
    public let storePath: String
    public let client: HTTPClient
    public let gate: HostGate
    /// The time deadlines and pauses are counted in: the system's, or a test's.
    public let clock: any SleepingClock
    /// How long the sync waits for another process's write lock before failing as "store: busy".
    public let busyTimeoutMilliseconds: Int32
    let schedule = Schedule()
    /// Whether this engine has checked its store's pages yet: once per process is enough
    /// (`quoted sync --once` is a process per run), and only a sync that writes pays it.
    private let storeChecked = Mutex(false)
    /// One source of this process writes the store at a time (`WriteTurns`).
    private let writeTurns = WriteTurns()

    public init(storePath: String, client: HTTPClient = HTTPClient(), clock: any SleepingClock = SystemClock(), gate: HostGate? = nil,
                busyTimeoutMilliseconds: Int32 = Store.defaultBusyTimeout) {
        self.storePath = storePath
        self.client = client
        self.clock = clock
        self.gate = gate ?? HostGate(clock: clock)
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// Syncs the sources concurrently (never two requests at once to one host),
    /// calling `progress` with each one's live lines and `finished` as each ends. Reports come
    /// back in `sources` order.
    public func sync(_ sources: [SourceSettings], progress: @escaping @Sendable (String, String) -> Void = { _, _ in },
                     finished: @escaping @Sendable (SourceReport) -> Void = { _ in }) async -> [SourceReport] {
        await withTaskGroup(of: (Int, SourceReport).self) { group in
            for (index, settings) in sources.enumerated() {
                group.addTask {
                    let report = await self.sync(settings, progress: { progress(settings.name, $0) }, checkpoint: false)
                    finished(report)
                    return (index, report)
                }
            }
            var reports = [SourceReport?](repeating: nil, count: sources.count)
            for await (index, report) in group { reports[index] = report }
            // One checkpoint when every source is done: a TRUNCATE checkpoint holds the write lock
            // while it waits for readers, and the other sources of this run are such readers.
            if reports.contains(where: { $0?.ok == true }),
               let store = try? Store(path: storePath, access: .write, busyTimeoutMilliseconds: busyTimeoutMilliseconds) {
                store.checkpointAndTruncate()
            }
            return reports.compactMap { $0 }
        }
    }

    /// Syncs one source; `progress` hears how it goes ("receiving …", "validated …", "writing to the store").
    public func sync(_ settings: SourceSettings, now: Int = UnixTime.now(),
                     progress: @escaping @Sendable (String) -> Void = { _ in }, checkpoint: Bool = true,
                     from prepared: Adapter? = nil) async -> SourceReport {
        let started = clock.now
        // Every source takes this process's turn for its commit, or for recording its failure: a
        // list spools its body outside it while it streams in, and is decoded and merged in the commit.
        let turn = WriteTurn(of: writeTurns)
        defer { turn.give() }
        let store: Store
        do {
            // The writer's turn among processes the same way: per transaction, never for the network's time.
            store = try Store(path: storePath, access: .write, now: now, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                              turn: .perTransaction)
        } catch {
            return SourceReport(source: settings.name, ok: false, summary: "store: \(error)", seconds: 0,
                                storeExitCode: error.exitCode)
        }
        // The store's connection goes into the source's transaction, where every use of it during
        // this sync goes through one lock. The store's check starts when a write is near (a
        // streaming list's first bytes: it runs beside the transfer) and is awaited before the commit.
        let check = Mutex<StoreCheck?>(nil)
        let transaction = SourceTransaction(store: store) { check.withLock { $0 = $0 ?? self.startCheck() } }
        let run = SourceRun(settings: settings, now: now, started: started, clock: clock, transaction: transaction, turn: turn)
        if let report = honourBlock(of: run) { return report }
        let context = SyncContext(settings: settings, client: client, gate: gate, storePath: storePath,
                                  transaction: transaction, now: now, clock: clock, progress: progress)
        do {
            var phases = PhaseClock(clock: clock)
            var update = try await (prepared ?? fetch)(settings, context)
            update.validators = await context.completed(update.validators)
            if let received = context.lastResponseAt { phases.mark("fetch", at: received) }
            phases.mark("decode + validate")
            if Task.isCancelled { throw SourceFailure("cancelled") }
            if update.writesRows {
                try (check.withLock { $0 } ?? startCheck())?.verdict()
                storeChecked.withLock { $0 = true }
            }
            return try await commit(update, of: run, fetchedBytes: context.fetchedBytes, phases: &phases, checkpoint: checkpoint,
                                    progress: progress)
        } catch {
            return await fail(run, with: error, fetchedBytes: context.fetchedBytes)
        }
    }

    /// A block is the upstream's word about the URL it was recorded for: a source pointed at
    /// another URL starts afresh. The report of a source not contacted, or nil to go ahead.
    private func honourBlock(of run: SourceRun) -> SourceReport? {
        let (settings, now) = (run.settings, run.now)
        let urls = [settings.url, URLText.redacted(settings.url)]
        guard let stored = try? run.transaction.withConnection({ try $0.syncState.block(source: settings.name, urls: urls) }),
              case let until = schedule.trusted(stored, of: settings, now: now, blocked: true), until > now else { return nil }
        // A block stored under a wrong clock is cut to one interval, and kept so, so that it ends.
        if until != stored {
            run.transaction.withConnection { connection in
                try? connection.write { (transaction) throws(StoreError) in try transaction.syncState.shortenBlock(source: settings.name, until: until) }
            }
        }
        // The upstream asked us to wait (Retry-After, or an Upbit 418 block): no request at all.
        var report = SourceReport(source: settings.name, ok: false,
                                  summary: "not contacted: the upstream asked to wait until \(UnixTime.timestamp(until)) (\(until - now) s)",
                                  retryAfter: until, nextDue: until, seconds: 0)
        report.notContacted = true
        return report
    }

    /// Writes `update` and the source's success in ONE transaction, then checkpoints.
    private func commit(_ update: SourceUpdate, of run: SourceRun, fetchedBytes: Int, phases: inout PhaseClock, checkpoint: Bool,
                        progress: @escaping @Sendable (String) -> Void) async throws -> SourceReport {
        let (settings, now) = (run.settings, run.now)
        var counts = ChangeCounts()
        var summary = ""
        let nextDue = nextDueAfterSuccess(settings, now: now)
        await run.turn.take()
        // A shutdown interrupts even a long apply: SQLite stops, the transaction rolls back.
        let cancel = CancelFlag()
        try await withTaskCancellationHandler {
            try run.transaction.commit(interruptibleBy: cancel) { connection in
                if Task.isCancelled { throw SourceFailure("cancelled") }
                progress("writing to the store")
                counts = try update.apply(&connection, now)
                phases.mark("write (rows, full-text, indexes)")
                counts.skipped += update.skipped
                summary = update.describe(counts)
                let outcome = SyncStateRepository.Outcome(ok: true, httpStatus: update.httpStatus, counts: counts,
                                                          message: summary, started: now, finished: now + Int(run.elapsed()),
                                                          fetchedBytes: fetchedBytes, durationMilliseconds: run.elapsedMilliseconds())
                try connection.syncState.recordSuccess(
                    source: settings.name, url: URLText.redacted(settings.url), validators: update.validators,
                    outcome: outcome, nextDue: nextDue)
            }
        } onCancel: {
            cancel.set()
        }
        phases.mark("commit")
        // Readers that open the store later must not each recover a big WAL.
        if checkpoint { run.transaction.checkpointAndTruncate() }
        phases.mark("checkpoint")
        var report = SourceReport(source: settings.name, ok: true, httpStatus: update.httpStatus, counts: counts,
                                  summary: summary, nextDue: nextDue, seconds: run.elapsed())
        report.phases = phases.phases
        report.fetchedBytes = fetchedBytes
        return report
    }

    /// Leaves every stored row as it was and records why the sync failed.
    private func fail(_ run: SourceRun, with error: any Error, fetchedBytes: Int) async -> SourceReport {
        let failure = SourceFailure(classifying: error)
        // A sync abandoned at shutdown is not a failure of the upstream: record nothing.
        if Task.isCancelled { return SourceReport(source: run.settings.name, ok: false, summary: "cancelled", seconds: run.elapsed()) }
        let seconds = run.elapsed()
        let recorded = outcome(failure, now: run.now, seconds: seconds, fetchedBytes: fetchedBytes,
                              milliseconds: run.elapsedMilliseconds())
        await run.turn.take()
        var report = run.transaction.withConnection { connection in
            failure.isLocal ? recordLocalFailure(failure, of: run.settings, in: connection, outcome: recorded, seconds: seconds)
                : recordFailure(failure, of: run.settings, in: connection, outcome: recorded, seconds: seconds)
        }
        report.fetchedBytes = fetchedBytes
        return report
    }

    /// Refuses to write into a store SQLite calls damaged (zeroed pages elsewhere in the file
    /// would otherwise go unnoticed by a sync that never reads them), as every reader does: once
    /// per process (`quoted sync --once` is a process per run), and only a sync that writes pays.
    private func startCheck() -> StoreCheck? {
        storeChecked.withLock { $0 } ? nil : StoreCheck(path: storePath)
    }

    /// What fetches and decodes a source: its upstream's adapter, or (on a spoke) the hub's feed.
    public typealias Adapter = @Sendable (SourceSettings, SyncContext) async throws(SourceFailure) -> SourceUpdate

    private func fetch(_ settings: SourceSettings, _ context: SyncContext) async throws(SourceFailure) -> SourceUpdate {
        switch settings.kind {
        case .custom: return try await CustomListSource.sync(context)
        case .happiness: return try await HappinessSource.sync(context)
        case .breakingbad: return try await BreakingBadSource.sync(context)
        case .upbit: return try await UpbitSource.sync(context)
        case .weather: return try await WeatherSource.sync(context)
        case .builtin: throw SourceFailure("the built-in starter set does not sync", isConfiguration: true)
        }
    }

    private func nextDueAfterSuccess(_ settings: SourceSettings, now: Int) -> Int {
        var generator = SystemRandomNumberGenerator()
        return schedule.nextDue(afterSuccessOf: settings, at: now, using: &generator)
    }

    private func recordLocalFailure(_ failure: SourceFailure, of settings: SourceSettings, in connection: SourceTransaction.Connection,
                                    outcome: SyncStateRepository.Outcome, seconds: Double) -> SourceReport {
        let now = outcome.started
        let nextDue = schedule.nextDue(afterLocalFailure: failure.storeExitCode == .temporaryFailure, at: now)
        var summary = failure.message
        do {
            try connection.write { (transaction) throws(StoreError) in
                try transaction.syncState.recordLocalFailure(
                    source: settings.name, url: URLText.redacted(settings.url), outcome: outcome, nextDue: nextDue)
            }
        } catch {
            summary += " (not recorded: the store refused that too)"
        }
        return SourceReport(source: settings.name, ok: false, summary: summary, nextDue: nextDue, seconds: seconds,
                            storeExitCode: failure.storeExitCode)
    }

    private func outcome(_ failure: SourceFailure, now: Int, seconds: Double, fetchedBytes: Int,
                         milliseconds: Int) -> SyncStateRepository.Outcome {
        SyncStateRepository.Outcome(ok: false, httpStatus: failure.httpStatus, message: failure.message,
                                    started: now, finished: now + Int(seconds), fetchedBytes: fetchedBytes,
                                    durationMilliseconds: milliseconds)
    }

    private func recordFailure(_ failure: SourceFailure, of settings: SourceSettings, in connection: SourceTransaction.Connection,
                               outcome: SyncStateRepository.Outcome, seconds: Double) -> SourceReport {
        let now = outcome.started
        var generator = SystemRandomNumberGenerator()
        let previous = (try? connection.syncState.consecutiveFailures(source: settings.name)) ?? 0
        let nextDue = schedule.nextDue(afterFailure: previous + 1, of: settings, at: now,
                                       retryAfter: failure.retryAfter, using: &generator)
        var summary = failure.message
        do {
            try connection.write { (transaction) throws(StoreError) in
                try transaction.syncState.recordFailure(
                    source: settings.name, url: URLText.redacted(settings.url), outcome: outcome,
                    retryAfter: failure.retryAfter, nextDue: nextDue)
            }
        } catch {
            summary += " (and the failure could not be recorded: \(error))"
        }
        return SourceReport(source: settings.name, ok: false, httpStatus: failure.httpStatus, summary: summary,
                            retryAfter: failure.retryAfter, nextDue: nextDue, seconds: seconds,
                            isConfigurationProblem: failure.isConfiguration)
    }
}
