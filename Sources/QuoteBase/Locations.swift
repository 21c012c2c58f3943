import QuoteSystem

/// Where quoted keeps things, in ONE search order per thing, shared by quoted and quotectl:
/// an explicit option first, then the environment variable, then the configuration, then
/// what systemd hands a service, then the system location, then the user's XDG folder.
public enum Locations {
    public static let systemStore = "/var/lib/quoted/quotes.db"
    public static let systemConfiguration = "/etc/quoted/quoted.conf"
    public static let systemSocketFolder = "/run/quoted"
    public static let socketName = "control.sock"

    /// The store: `--db`, $QUOTED_DB, `[store] path`, the service's $STATE_DIRECTORY, for a
    /// reader the system store when it exists and this user may read it, else
    /// $XDG_DATA_HOME/quoted/quotes.db (~/.local/share/...). A writer outside the system
    /// service (a user's own daemon) never picks the system store by itself, even when its
    /// group may write it.
    public static func store(option: String?, configured: String?, writing: Bool) -> String {
        if let option { return option }
        if let environment = Environment.variable("QUOTED_DB") { return environment }
        if let configured { return configured }
        if let state = Environment.systemdDirectory("STATE_DIRECTORY") { return Path.join(state, "quotes.db") }
        if !writing, FileSystem.isAccessible(systemStore, for: .read) { return systemStore }
        return Path.join(dataHome(), "quoted/quotes.db")
    }

    /// Whether the store's place is settled without reading the configuration (it is read only when needed).
    public static func storeNeedsConfiguration(option: String?) -> Bool {
        option == nil && Environment.variable("QUOTED_DB") == nil
    }

    /// The configuration: `--config`, $QUOTED_CONFIG, the service's $CONFIGURATION_DIRECTORY,
    /// $XDG_CONFIG_HOME/quoted/quoted.conf (~/.config/...), /etc/quoted/quoted.conf. Nil when
    /// none exists (defaults apply); `explicit` tells whether the user named it (then a missing
    /// file is an error).
    public static func configuration(option: String?) -> (path: String, explicit: Bool)? {
        if let option { return (option, true) }
        if let environment = Environment.variable("QUOTED_CONFIG") { return (environment, true) }
        return configurationCandidates().first { FileSystem.exists($0) }.map { ($0, false) }
    }

    /// Where a configuration file is looked for when none is named, in order (the paths as
    /// they are here, $XDG_CONFIG_HOME worked out).
    public static func configurationCandidates() -> [String] {
        var candidates: [String] = []
        if let directory = Environment.systemdDirectory("CONFIGURATION_DIRECTORY") {
            candidates.append(Path.join(directory, "quoted.conf"))
        }
        candidates.append(Path.join(Environment.absolutePath("XDG_CONFIG_HOME") ?? Path.join(Environment.home(), ".config"),
                                    "quoted/quoted.conf"))
        candidates.append(systemConfiguration)
        return candidates
    }

    /// The control socket's candidates, most specific first: `[daemon] socket`, the service's
    /// $RUNTIME_DIRECTORY, $XDG_RUNTIME_DIR/quoted, /run/quoted. The daemon listens on the first;
    /// a client tries each in turn.
    public static func sockets(configured: String?) -> [String] {
        if let configured { return [configured] }
        var candidates: [String] = []
        if let runtime = Environment.systemdDirectory("RUNTIME_DIRECTORY") { candidates.append(Path.join(runtime, socketName)) }
        if let xdg = Environment.absolutePath("XDG_RUNTIME_DIR") { candidates.append(Path.join(xdg, "quoted/" + socketName)) }
        candidates.append(Path.join(systemSocketFolder, socketName))
        return candidates
    }

    /// Where the message catalogs are (LL/LC_MESSAGES/quoted.mo): the ones this build compiled
    /// when the program runs from its checkout's .build, else share/locale beside the program's
    /// bin (/usr/bin/quotectl: /usr/share/locale; /usr/local/bin: /usr/local/share/locale).
    public static func catalogs() -> String {
        let program = CurrentProcess.executablePath() ?? ""
        if let built = builtCatalogFolder, let build = built.firstRange(of: "/.build/"),
           program.hasPrefix(built[..<build.upperBound]) {
            return built
        }
        let bin = Path.parent(of: program)
        guard program.hasPrefix("/"), bin.hasSuffix("/bin") else { return "/usr/share/locale" }
        return Path.join(String(bin.dropLast(4)), "share/locale")
    }

    static func dataHome() -> String {
        Environment.absolutePath("XDG_DATA_HOME") ?? Path.join(Environment.home(), ".local/share")
    }
}
