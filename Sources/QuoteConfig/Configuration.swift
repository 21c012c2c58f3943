import QuoteBase
import Glibc
import QuoteModels

/// A configuration problem, naming the file, the line and the key (exit 78).
public struct ConfigError: Error, Sendable, CustomStringConvertible, Equatable {
    public let file: String
    public let line: Int
    public let message: String
    /// The file's other problems, after this one in line order.
    public var others: [ConfigError] = []

    /// This problem alone, on one line: `FILE:LINE: message`.
    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }

    /// Every problem of the file, in line order: this one, then the others.
    public var all: [ConfigError] {
        [ConfigError(file: file, line: line, message: message)] + others
    }
}

/// quoted's configuration: defaults for everything, overridden by an INI file.
public struct Configuration: Sendable {
    /// The file it was read from; nil when none exists and defaults apply.
    public var file: String?
    public var storePath: String?
    public var socketPath: String?
    public var logLevel: LogLevel?
    /// A hub: where the feed is written.
    public var publish: PublishSettings?
    /// A spoke: where the feed comes from.
    public var fleet: FleetSettings?
    /// `[metrics]`: the daemon's textfile.
    public var metrics = MetricsSettings()
    /// `[check]`: quotectl check's thresholds.
    public var check = CheckSettings()
    public var sources: [SourceSettings]
    /// Things worth saying that do not stop the program (an API key others can read).
    public var warnings: [String] = []
    /// The text this configuration was read from (empty for the built-in defaults): the
    /// daemon hands it to each sync it starts, so a sync always runs with the configuration
    /// the daemon runs with, even after the file was edited but not reloaded.
    public var text = ""

    public static let defaults = Configuration(file: nil, sources: SourceSettings.defaults())

    public init(file: String?, storePath: String? = nil, sources: [SourceSettings]) {
        self.file = file
        self.storePath = storePath
        self.sources = sources
    }

    public func source(named name: String) -> SourceSettings? {
        sources.first { $0.name == name }
    }

    public var enabledSources: [SourceSettings] { sources.filter(\.enabled) }

    /// Whether quoted syncs `name` under this configuration: a source it enables (a fixed one by
    /// default), or on a spoke a hub's list the feed brings (`fromHub`) that it does not name.
    /// Never a source it turns off, nor a list it does not name (one only imported, one removed).
    public func syncs(_ name: String, fromHub: Bool) -> Bool {
        source(named: name)?.enabled ?? fromHub
    }

    /// The names (`custom.NAME`) of the custom lists this configuration holds.
    public var customListNames: [String] { sources.filter { $0.kind == .custom }.map(\.name) }

    /// Reads and validates `path`.
    public static func load(path: String) throws(ConfigError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try ConfigFile.read(path)
        } catch {
            throw ConfigError(file: path, line: 0, message: error.reason)
        }
        var configuration = try parse(ConfigFile.text(bytes, file: path), file: path)
        if let warning = ConfigFile.readableKeyWarning(path: path, configuration: configuration) {
            configuration.warnings.append(warning)
        }
        return configuration
    }

    /// Validates `text` as if read from `file`. Throws the first problem in line order, which
    /// holds every other the file has (`ConfigError.all`).
    public static func parse(_ text: String, file: String) throws(ConfigError) -> Configuration {
        let problems = ConfigProblems()
        var syntax: [INIFile.SyntaxError] = []
        let ini = INIFile(parsing: text, problems: &syntax)
        for error in syntax { problems.add(ConfigError(file: file, line: error.line, message: error.message)) }
        let reader = SectionReader(file: file, problems: problems)
        var configuration = Configuration(file: file, sources: SourceSettings.defaults())
        configuration.text = text
        var customLists: [SourceSettings] = []
        for section in ini.sections {
            problems.recording { () throws(ConfigError) in
                try configuration.read(section, reader: reader, file: file, customLists: &customLists)
            }
        }
        configuration.sources = customLists + configuration.sources
        configuration.checkAcrossSections(ini, reader: reader)
        if let error = problems.firstInLineOrder { throw error }
        return configuration
    }

    /// One section: each problem of its keys goes to the reader's list; what leaves nothing
    /// of the section to read (an unknown section, a missing key it needs) is thrown.
    private mutating func read(_ section: INIFile.Section, reader: SectionReader, file: String,
                               customLists: inout [SourceSettings]) throws(ConfigError) {
        switch section.name {
        case "store":
            reader.check(section, allowed: ConfigKey.allowed(in: .store))
            self.storePath = try reader.path(section, "path")
        case "daemon":
            readDaemon(section, reader: reader)
        case "publish":
            self.publish = try reader.publish(section)
        case "fleet":
            self.fleet = try reader.fleet(section)
        case "metrics":
            self.metrics = try reader.metrics(section)
        case "check":
            self.check = reader.checkSettings(section)
        case let name where name.hasPrefix("source.custom."):
            customLists.append(try Self.customList(section, reader: reader))
        case let name where name.hasPrefix("source."):
            try applySource(section, reader: reader, file: file)
        default:
            throw reader.error(section.line, tr("unknown section [\(section.name)] (sections: store, daemon, publish, fleet, metrics, check, source.NAME)"))
        }
    }

    /// `[daemon]`: the socket and the log level, each judged on its own.
    private mutating func readDaemon(_ section: INIFile.Section, reader: SectionReader) {
        reader.check(section, allowed: ConfigKey.allowed(in: .daemon))
        reader.problems.recording { () throws(ConfigError) in
            self.socketPath = try reader.path(section, "socket")
            if let socket = self.socketPath, let entry = section.entries.first(where: { $0.key == "socket" }) {
                try reader.checkSocketPath(socket, line: entry.line)
            }
        }
        if let level = section.entries.first(where: { $0.key == "log_level" }) {
            guard let parsed = LogLevel(rawValue: level.value) else {
                reader.problems.add(reader.error(level.line, tr("log_level must be \(LogLevel.choicesText), not '\(level.value)'")))
                return
            }
            self.logLevel = parsed
        }
    }

    /// `[source.custom.NAME]`: a custom list's settings.
    private static func customList(_ section: INIFile.Section, reader: SectionReader) throws(ConfigError) -> SourceSettings {
        let name = section.name
        guard let sourceName = SourceName.custom(String(name.dropFirst("source.custom.".count))) else {
            throw reader.error(section.line, tr("[\(name)]: a list name takes letters, digits, '-', '_' and '.'"))
        }
        var settings = SourceSettings(name: sourceName, kind: .custom, enabled: true, url: "", interval: 3_600)
        reader.apply(section, to: &settings)
        return settings
    }

    /// `[source.NAME]` for a built-in upstream: its settings over the defaults.
    private mutating func applySource(_ section: INIFile.Section, reader: SectionReader, file: String) throws(ConfigError) {
        let name = section.name
        let sourceName = String(name.dropFirst("source.".count))
        guard let index = sources.firstIndex(where: { $0.name == sourceName }) else {
            throw reader.error(section.line, tr("unknown section [\(name)] (sources: custom.NAME, happiness, breakingbad, upbit, weather)"))
        }
        reader.apply(section, to: &sources[index])
        if sourceName == SourceName.happiness, let interval = section.entries.first(where: { $0.key == "interval" }) {
            // Said, not silently ignored: the schedule follows the upstream's day.
            warnings.append(tr("""
                \(file):\(interval.line): interval does not apply to [source.happiness]: \
                it syncs once a day, a few minutes after 00:00 UTC, when the upstream's quote changes
                """))
        }
    }

    /// What no single section can say wrong: the manifest's validity against the sources' intervals,
    /// the socket against the store. A value refused in its section is not judged again here.
    private func checkAcrossSections(_ ini: INIFile, reader: SectionReader) {
        // The hub signs a fresh manifest when a sync finds half its validity gone: some source must sync that often.
        if let publish = publish, let shortest = enabledSources.map(\.interval).min(),
           publish.validFor < 2 * shortest,
           ini.sections.allSatisfy({ reader.readCleanly($0, ["valid_for", "interval", "enabled"]) }) {
            reader.problems.add(reader.error(ini.sections.first { $0.name == "publish" }?.line ?? 0,
                               tr("[publish] valid_for (\(ConfigText.duration(publish.validFor))) must be at least twice the shortest enabled source's interval (\(ConfigText.duration(shortest))): a sync re-signs the manifest when half its validity is gone")))
        }
        if let socket = socketPath, let store = storePath, socket == store, ini.sections.allSatisfy({ reader.readCleanly($0, ["socket"]) }) {
            reader.problems.add(reader.error(ini.sections.first { $0.name == "daemon" }?.line ?? 0,
                               tr("[daemon] socket is the store's own path \(store): the socket needs a path of its own")))
        }
    }
}
