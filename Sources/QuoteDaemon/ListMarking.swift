import QuoteBase
import QuoteStore
import QuoteSystem
import QuoteSystemTasks

/// A reload's store work: marking which custom lists the configuration names
/// (`Store.reconcileCustomLists`). The reload answers without it. It runs as a task of the
/// scheduler's group once every sync started under an older configuration has ended (such a sync
/// still writes its list as configured: a list removed while it syncs is marked after it), and it
/// takes the store's writer turn only when the turn is free: it asks without waiting and asks
/// again a moment later, so neither a control request nor a stop ever waits on it.
extension Daemon {
    /// How long one attempt waits for SQLite's write lock, and the pause before the next attempt.
    static let listMarkingBusyTimeout: Int32 = 1_000
    static let listMarkingRetry = Duration.seconds(1)

    /// The sources syncing now under a configuration that a later reload replaced, sorted.
    var syncsUnderAnOlderConfiguration: [String] {
        sourceStates.filter { $0.value.running && $0.value.startedUnder < appliedReload }.keys.sorted()
    }

    /// The last reload's lists are not marked in the store yet (status says so).
    var listMarkingPending: Bool { listsToMark != nil || markingLists }

    /// What a reload's answer adds while its marking waits for syncs of the older configuration.
    func listMarkingNote() -> String {
        let older = syncsUnderAnOlderConfiguration
        guard listsToMark != nil, !older.isEmpty else { return "" }
        let syncs = older.count == 1 ? "sync of \(older[0]) ends" : "syncs of \(older.joined(separator: ", ")) end"
        return "; the store marks which lists are configured once the running \(syncs)"
    }

    /// Starts the marking as a task of `work` once it may run.
    func startListMarking(in work: inout DiscardingTaskGroup) {
        guard listsToMark != nil, !markingLists, !isStopping, syncsUnderAnOlderConfiguration.isEmpty else { return }
        markingLists = true
        work.addTask { await self.markLists() }
    }

    /// Marks the lists of the last reload applied (one applied meanwhile brings its own), asking
    /// again while another writer has the store. A stop ends it: the next start marks them.
    func markLists() async {
        defer { markingLists = false }
        var told = false
        while let names = listsToMark, !isStopping, !Task.isCancelled, syncsUnderAnOlderConfiguration.isEmpty {
            listsToMark = nil
            let storePath = self.storePath, timeout = min(storeBusyTimeout, Self.listMarkingBusyTimeout)
            do throws(StoreError) {
                try await BlockingWork.perform { () throws(StoreError) in
                    try Store.reconcileCustomLists(names, storePath: storePath, busyTimeoutMilliseconds: timeout, writerPatience: .zero)
                }
                let listed = names.isEmpty ? "none" : names.joined(separator: ", ")
                logger.info("reload: the store marks the configured custom lists (\(listed))")
            } catch {
                guard error.exitCode == .temporaryFailure else {
                    logger.error("reload: could not mark the configured custom lists in the store: \(error); the next sync marks them")
                    continue
                }
                // Another writer has the store (a sync, an import): ask again in a moment, unless a
                // later reload has brought lists of its own meanwhile.
                if listsToMark == nil { listsToMark = names }
                if !told { logger.info("reload: marking the configured custom lists waits for the store: \(error)") }
                told = true
                guard (try? await clock.sleep(for: Self.listMarkingRetry)) != nil else { return }
            }
        }
    }
}
