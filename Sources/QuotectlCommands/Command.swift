import QuoteBase
import QuoteCommandLine
import QuoteConfig
import QuoteStore

/// One subcommand: its spec (from which its help, manual section and completions come)
/// and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    /// Its output can run long: on a terminal it goes through the pager.
    let pages: Bool
    let run: @Sendable (Arguments, inout Context) throws -> ExitCode
    /// What a mistake in its arguments prints and exits with: the usage and 64, unless the
    /// command speaks another convention (`check`: a monitoring plugin's UNKNOWN, 3).
    let onUsageError: @Sendable (UsageError) -> ExitCode

    init(_ spec: CommandSpec, pages: Bool = false, onUsageError: @escaping @Sendable (UsageError) -> ExitCode = { usageFailure($0) },
         run: @escaping @Sendable (Arguments, inout Context) throws -> ExitCode) {
        self.spec = spec
        self.pages = pages
        self.onUsageError = onUsageError
        self.run = run
    }

    var name: String { spec.name }
}

/// Nothing matched what the user asked for (exit 66, the message on stderr).
struct NoMatch: Error {
    let message: String
}

/// What every command may need: where the store is, opened on first use.
struct Context {
    let configOption: String?
    let dbOption: String?
    /// `--no-create`: a reading command never makes a store, not even at the default place.
    var noCreate = false
    private var openStore: Store?
    private var loadedConfiguration: Configuration??

    init(configOption: String?, dbOption: String?) {
        self.configOption = configOption
        self.dbOption = dbOption
    }

    /// The daemon's configuration: nil when there is none. A file the user named must
    /// be valid; one found by itself is only a hint (quotectl random must still answer).
    mutating func configuration() throws(ConfigError) -> Configuration? {
        if let loadedConfiguration { return loadedConfiguration }
        var result: Configuration?
        if let location = Locations.configuration(option: configOption) {
            do {
                result = try Configuration.load(path: location.path)
            } catch {
                if location.explicit { throw error }
            }
        }
        loadedConfiguration = .some(result)
        return result
    }

    /// The store's path; the configuration is read only when --db and $QUOTED_DB are silent.
    mutating func storePath() throws(ConfigError) -> String {
        // The configuration is read only when neither --db nor $QUOTED_DB settles it.
        let configured = Locations.storeNeedsConfiguration(option: dbOption) ? try configuration()?.storePath : nil
        return Locations.store(option: dbOption, configured: configured, writing: false)
    }

    /// The store opened, if any, left to the process's exit: the program's run ends with it.
    func leaveToTheExit() {
        openStore?.leaveToTheExit()
    }

    mutating func store(_ access: Store.Access = .read) throws -> Store {
        if let openStore { return openStore }
        let path = try storePath()
        // A store named by --db or $QUOTED_DB must be there for reading: a typo
        // (/tmp/quote.db for quotes.db) is an error, never a new store with the starter set, and
        // so is a file there that holds none yet (0 bytes, SQLite with no schema): left as it is.
        // The default locations are still created on first use; writers may create one.
        // --no-create holds for writers too ("never create a store"); without it a writer may.
        let creating = !noCreate && (access == .write || Locations.storeNeedsConfiguration(option: dbOption))
        if !creating, !Path.exists(path) {
            throw StoreError.missing(path: path, reason: noCreate ? tr("no store there, and --no-create")
                                     : tr("no such file; reading commands never create a store (quotectl import or quoted sync make one)"))
        }
        // A writer says another writer's turn on this run's standard error (a reader that must
        // migrate waits in silence, as it always has).
        let waiting: WriterTurn.Note? = access == .write ? { @Sendable (line: String) in Output.standardError("quotectl: " + line + "\n") } : nil
        let store = try Store(path: path, access: access, creating: creating, now: Run.now(), sayingWaiting: waiting)
        openStore = store
        return store
    }
}
