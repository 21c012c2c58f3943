import QuoteBase
/// `[check]`: when `quotectl check` calls a source stale, and a failure critical (the daemon's
/// status line says the same).
public struct CheckSettings: Sendable, Equatable {
    public static let staleAfterIntervals = 1...100
    public static let criticalAfter = 60...(30 * 86_400)
    public static let defaultStaleAfterIntervals = 2
    public static let defaultCriticalAfter = 3_600

    public var staleAfterIntervals = Self.defaultStaleAfterIntervals
    public var criticalAfter = Self.defaultCriticalAfter

    public init() {}
}

/// `[metrics]`: where the daemon writes its Prometheus metrics.
public struct MetricsSettings: Sendable, Equatable {
    /// A `.prom` file for node_exporter's textfile collector.
    public var textfile: String?

    public init(textfile: String? = nil) {
        self.textfile = textfile
    }
}

extension SectionReader {
    /// `[metrics] textfile = /absolute/path.prom`.
    func metrics(_ section: INIFile.Section) throws(ConfigError) -> MetricsSettings {
        check(section, allowed: ConfigKey.allowed(in: .metrics))
        guard let textfile = try path(section, "textfile") else { return MetricsSettings() }
        let line = section.entries.first { $0.key == "textfile" }?.line ?? section.line
        let name = textfile.split(separator: "/").last.map(String.init) ?? ""
        guard name.hasSuffix(".prom"), name.count > ".prom".count else {
            throw error(line, tr("textfile must end in .prom (node_exporter's textfile collector reads only those), not '\(textfile)'"))
        }
        return MetricsSettings(textfile: textfile)
    }

    /// `[check] stale_after_intervals = N`, `critical_after = DURATION`: each value refused is a
    /// problem of its line, and leaves its default.
    func checkSettings(_ section: INIFile.Section) -> CheckSettings {
        check(section, allowed: ConfigKey.allowed(in: .check))
        var settings = CheckSettings()
        for entry in section.entries {
            switch entry.key {
            case "stale_after_intervals":
                let range = CheckSettings.staleAfterIntervals
                guard let count = ConfigValue.count(entry.value), range.contains(count) else {
                    problems.add(error(entry.line, tr("stale_after_intervals must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(entry.value)'")))
                    continue
                }
                settings.staleAfterIntervals = count
            case "critical_after":
                let range = CheckSettings.criticalAfter
                guard let seconds = ConfigValue.duration(entry.value), range.contains(seconds) else {
                    problems.add(error(entry.line, tr("critical_after must be a duration from \(ConfigText.durations(range)), not '\(entry.value)'")))
                    continue
                }
                settings.criticalAfter = seconds
            default:
                // Named by check() as unknown.
                continue
            }
        }
        return settings
    }
}
