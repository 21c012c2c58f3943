/// The Prometheus text exposition format (0.0.4) of a `MetricsSnapshot`: `# HELP` and `# TYPE`
/// for each family, families in a fixed order, samples sorted by their labels, label values
/// escaped, no timestamps (node_exporter's textfile collector refuses files with them). A
/// family with no sample (a value never known) is left out whole.
public enum PrometheusText {
    /// The media type a scraper expects for this text.
    public static let contentType = "text/plain; version=0.0.4"

    public static func render(_ snapshot: MetricsSnapshot) -> String {
        var out = ""
        for family in families(snapshot) where !family.samples.isEmpty { family.write(to: &out) }
        return out
    }

    static func families(_ snapshot: MetricsSnapshot) -> [Family] {
        var result = [Family("quoted_build_info", .gauge, "The version of quoted that wrote these metrics.",
                             [Sample([("version", snapshot.version)], 1)])]
        result += SourceFamilies.all(snapshot.sources)
        result += FeedFamilies.hub(snapshot.hubFeeds) + FeedFamilies.spoke(snapshot.spokeFeeds)
        if let daemon = snapshot.daemon {
            result.append(Family("quoted_daemon_start_time_seconds", .gauge, "When the daemon started (Unix seconds).",
                                 [Sample([], .integer(daemon.startTime))]))
            result.append(Family("quoted_daemon_syncs_total", .counter, "Syncs the daemon ran since it started.",
                                 [Sample([], .integer(daemon.syncsTotal))]))
        }
        return result
    }

    /// A label value as the format wants it: backslash, double quote and newline escaped.
    public static func escapeLabel(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}

/// One metric family: its name, type, help and samples.
struct Family {
    enum Kind: String { case gauge, counter }

    let name: String
    let kind: Kind
    let help: String
    let samples: [Sample]

    init(_ name: String, _ kind: Kind, _ help: String, _ samples: [Sample]) {
        self.name = name
        self.kind = kind
        self.help = help
        self.samples = samples.sorted { $0.labelText < $1.labelText }
    }

    func write(to out: inout String) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        for sample in samples { out += name + sample.labelText + " " + sample.value.text + "\n" }
    }
}

/// One sample: its labels (in the order given) and its value.
struct Sample {
    enum Value: ExpressibleByIntegerLiteral {
        case integer(Int)
        /// Thousandths, written as a decimal (a duration in milliseconds, as seconds).
        case thousandths(Int)

        init(integerLiteral value: Int) { self = .integer(value) }

        var text: String {
            switch self {
            case .integer(let value): return String(value)
            case .thousandths(let value):
                let magnitude = value.magnitude
                let fraction = String(magnitude % 1000)
                return (value < 0 ? "-" : "") + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
            }
        }
    }

    let labelText: String
    let value: Value

    init(_ labels: [(String, String)], _ value: Value) {
        labelText = labels.isEmpty ? ""
            : "{" + labels.map { "\($0.0)=\"\(PrometheusText.escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
        self.value = value
    }
}
