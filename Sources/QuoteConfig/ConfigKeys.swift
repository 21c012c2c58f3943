import QuoteBase
import QuoteModels

/// Every configuration key, once: the validator takes the keys each section allows from here,
/// and quoted.conf(5) prints this table (with the ranges of ConfigLimits).
public struct ConfigKey: Sendable {
    public enum Section: Sendable, Equatable {
        case store, daemon, publish, fleet, metrics, check
        /// `[source.NAME]`, for these kinds (all kinds when empty).
        case source(Set<SourceKind>)
    }

    public let name: String
    public let section: Section
    /// English, marked for the catalog and translated where quoted.conf(5) shows it: the
    /// validator, which every quotectl start that reads a configuration runs, builds this
    /// table without a catalog lookup.
    public let meaning: Message
    /// A translated text (none (no feed)), or a value as the configuration writes it
    /// (7d, 32M, info: `Message(value:)`, never looked up).
    public let defaultValue: Message

    init(name: String, section: Section, meaning: Message, defaultValue: Message) {
        self.name = name
        self.section = section
        self.meaning = meaning
        self.defaultValue = defaultValue
    }

    public static let all: [ConfigKey] = [
        ConfigKey(name: "path", section: .store, meaning: declared("Where the store is (an absolute path)."),
                  defaultValue: declared("$STATE_DIRECTORY/quotes.db under systemd, else $XDG_DATA_HOME/quoted/quotes.db")),
        ConfigKey(name: "socket", section: .daemon,
                  meaning: declared("The control socket (an absolute path of at most \(ConfigLimits.socketPathBytes) bytes); only a socket is ever replaced there."),
                  defaultValue: declared("$RUNTIME_DIRECTORY/control.sock, else $XDG_RUNTIME_DIR/quoted/control.sock, else /run/quoted/control.sock")),
        ConfigKey(name: "log_level", section: .daemon, meaning: declared("\(LogLevel.choices)."), defaultValue: Message(value: LogLevel.standard.rawValue)),
        ConfigKey(name: "dir", section: .publish,
                  meaning: declared("Turns this host into a hub: after each sync that changed a source, its data is written to this folder as a feed (manifest.json and by-hash files) for other hosts to sync from; an absolute path."),
                  defaultValue: declared("none (no feed)")),
        ConfigKey(name: "signing_key", section: .publish,
                  meaning: declared("signify secret keys without passphrase (signify-openbsd -G -n -p hub.pub -s hub.sec), absolute paths separated by commas (two during a key rotation): each signs the manifest as manifest.KEYNUMBER.signed (signify -e, what spokes fetch) and the first as manifest.json.sig. A key file anyone but its owner may read is refused."),
                  defaultValue: declared("none (unsigned)")),
        ConfigKey(name: "name", section: .publish,
                  meaning: declared("The feed's name, written into its signed manifest (such as example.org/quotes); spokes pin it and refuse another feed signed by the same key."),
                  defaultValue: declared("this host's name")),
        ConfigKey(name: "valid_for", section: .publish,
                  meaning: declared("How long a manifest is valid (\(ConfigText.durations(FeedLimits.validFor))); the hub signs a fresh one when half of it is gone, so it must be at least twice the shortest enabled source's interval."),
                  defaultValue: Message(value: ConfigText.duration(FeedLimits.defaultValidFor))),
        ConfigKey(name: "next_keys", section: .publish,
                  meaning: declared("signify public keys the signed manifest announces as next, absolute paths separated by commas: spokes adopt them, so the current key can retire without touching them."),
                  defaultValue: declared("none")),
        ConfigKey(name: "hub", section: .fleet,
                  meaning: declared("Turns this host into a spoke: the URL of a hub's feed folder (several, separated by commas: mirrors, tried in order when one fails, lags or is frozen); every enabled source syncs from its feed instead of its upstream (one the feed does not hold is reported 'not in the hub's feed'), unless [source.NAME] sets a url of its own. An https hub is never followed to http."),
                  defaultValue: declared("none (sync from the upstreams)")),
        ConfigKey(name: "hub_key", section: .fleet,
                  meaning: declared("The hub's signify public keys, absolute paths separated by commas: a manifest signed by none of them, or by none the spoke adopted from the feed's next_keys, is refused. Needed unless the hub is on a loopback address."),
                  defaultValue: declared("none (loopback hubs only)")),
        ConfigKey(name: "ca_file", section: .fleet,
                  meaning: declared("A PEM file of the CA certificates to trust for an https hub and its mirrors instead of the system's (a hub behind a private CA); an absolute path."),
                  defaultValue: declared("the system's certificates")),
        ConfigKey(name: "name", section: .fleet,
                  meaning: declared("The feed's name, pinned up front: a manifest of another name is refused."),
                  defaultValue: declared("the name of the first manifest applied, then pinned")),
        ConfigKey(name: "timeout", section: .fleet, meaning: declared("Per feed request, whole seconds: \(ConfigText.durations(ConfigLimits.timeout))."),
                  defaultValue: Message(value: ConfigText.duration(FeedLimits.defaultTimeout))),
        ConfigKey(name: "max_bytes", section: .fleet, meaning: declared("The largest feed file: \(ConfigText.sizes(FeedLimits.maxBytes))."),
                  defaultValue: Message(value: ConfigText.size(FeedLimits.defaultMaxBytes))),
        ConfigKey(name: "textfile", section: .metrics,
                  meaning: declared("The daemon writes its Prometheus metrics to this file (an absolute path ending .prom) at start and after every sync, for node_exporter's textfile collector: to a temporary name in the same folder, then renamed; mode 0644, no timestamps. The folder must exist and be writable by the daemon (a configuration error at start otherwise, and a refused reload: the running configuration stays); a later failed write is logged once and never fails a sync. A reload applies a change at once: the new file is written right away; with the key (or [metrics]) removed the daemon stops writing and leaves the last file where it is (remove it yourself if nothing should read it)."),
                  defaultValue: declared("none (no file)")),
        ConfigKey(name: "stale_after_intervals", section: .check,
                  meaning: declared("quotectl check (and the daemon's status line): a source whose last success is older than this many of its intervals is stale (WARNING): \(CheckSettings.staleAfterIntervals.lowerBound) to \(CheckSettings.staleAfterIntervals.upperBound); --stale-after-intervals overrides it."),
                  defaultValue: Message(value: String(CheckSettings.defaultStaleAfterIntervals))),
        ConfigKey(name: "critical_after", section: .check,
                  meaning: declared("quotectl check: a source failing for longer than this is CRITICAL: \(ConfigText.durations(CheckSettings.criticalAfter)); --critical-after overrides it."),
                  defaultValue: Message(value: ConfigText.duration(CheckSettings.defaultCriticalAfter))),
        ConfigKey(name: "enabled", section: .source([]), meaning: declared("true or false (also yes/no, on/off, 1/0)."),
                  defaultValue: declared("true (weather: false)")),
        ConfigKey(name: "url", section: .source([]),
                  meaning: declared("The upstream: https unless the host is loopback or allow_http is true; at most \(ConfigLimits.urlLength) bytes; no user name or password in it."),
                  defaultValue: declared("the public API")),
        ConfigKey(name: "interval", section: .source([]),
                  meaning: declared("How often, such as 30m, 6h, 1d or 1h30m: \(ConfigText.durations(ConfigLimits.interval)) (down to \(ConfigText.duration(ConfigLimits.loopbackInterval.lowerBound)) for loopback hosts)."),
                  defaultValue: declared("1h (happiness 24h, breakingbad 6h, weather 30m)")),
        ConfigKey(name: "allow_http", section: .source([]), meaning: declared("Allow plain http to a host that is not loopback."),
                  defaultValue: Message(value: "false")),
        ConfigKey(name: "timeout", section: .source([]), meaning: declared("Per request, whole seconds: \(ConfigText.durations(ConfigLimits.timeout)). One deadline covers the request and every redirect it follows; a Breaking Bad sync gives each of its requests its own."), defaultValue: Message(value: ConfigText.duration(SourceSettings.defaultTimeout))),
        ConfigKey(name: "max_bytes", section: .source([]),
                  meaning: declared("The largest response, on the wire and decoded, enforced while receiving: \(ConfigText.sizes(ConfigLimits.maxBytes)) (512K, 32M)."),
                  defaultValue: Message(value: ConfigText.size(SourceSettings.defaultMaxBytes))),
        ConfigKey(name: "allow_shrink", section: .source([.custom, .breakingbad]),
                  meaning: declared("Accept an empty list, or one that removes more than half of what is stored (custom lists; Breaking Bad deaths)."),
                  defaultValue: Message(value: "false")),
        ConfigKey(name: "format", section: .source([.custom]),
                  meaning: declared("How the list is written: \(ListFormat.Kind.allCases.map(\.rawValue).joined(separator: ", ")). json: an array of objects (where items points, with the members fields names); fortune: quotes separated by lines holding %, an indented '-- author' line ending one; text: one quote per line (or per paragraph: split); csv: RFC 4180 with a header row naming the columns; atom and rss: a quote-of-the-day feed, each entry a quote; auto: decided from the Content-Type and the first bytes, and the sync's line says what was decided."),
                  defaultValue: Message(value: ListFormat.Kind.json.rawValue)),
        ConfigKey(name: "items", section: .source([.custom]),
                  meaning: declared("json (and auto): where the list is in the document, a JSON Pointer (RFC 6901) such as /results or /data/quotes (~1 stands for / and ~0 for ~ in a member's name); an object there is a list of one (at the top level, only with fields: a list in the Gist's shape is an array). What lies around the list is passed over, never held."),
                  defaultValue: declared("the whole document (an array)")),
        ConfigKey(name: "fields", section: .source([.custom]),
                  meaning: declared("json, csv (and auto): which member (or CSV column) holds each field, as field:member separated by commas, the fields being id, text, author and category, such as text:q, author:a; a member starting with / is a JSON Pointer inside the item (author:/author/name). A field not named is the member of its name (text, author, category); a category may be an array of strings (joined with commas). With fields and no id:, each quote's id is derived from its text, as a fortune file's: an edited quote is a new one (the old one leaves with the sync), and the same text twice is one quote, not a duplicate id. A field or member named twice is refused."),
                  defaultValue: declared("none (id, text, category, and source as the author; author in quotectl export's shape)")),
        ConfigKey(name: "split", section: .source([.custom]),
                  meaning: declared("text only: where a quote ends, line or paragraph (a blank line)."),
                  defaultValue: Message(value: ListFormat.Split.line.rawValue)),
        ConfigKey(name: "author_pattern", section: .source([.custom]),
                  meaning: declared("atom, rss (and auto) only: a POSIX extended regular expression (regex(7)) with at least one group, matched against an entry's text where the feed names no author: its first group is the author, and what it matched is removed from the text. Checked by regcomp when the configuration is read. A # or ; after white space starts a comment: write [#] or [;]."),
                  defaultValue: declared("none (the feed's author)")),
        ConfigKey(name: "archive", section: .source([.custom]),
                  meaning: declared("true: quotes stay when the list no longer holds them (a feed's yesterday's quote); false: the list is the truth and what it no longer holds is removed."),
                  defaultValue: declared("true for atom and rss, else false")),
        ConfigKey(name: "productions", section: .source([.breakingbad]),
                  meaning: declared("The productions to sample, comma-separated (at most 20)."), defaultValue: Message(value: "Breaking Bad, Better Call Saul, El Camino")),
        ConfigKey(name: "known_streak", section: .source([.breakingbad]),
                  meaning: declared("Stop sampling a production after this many known quotes in a row: \(ConfigLimits.knownStreak.lowerBound) to \(ConfigLimits.knownStreak.upperBound)."),
                  defaultValue: Message(value: String(SourceSettings.defaultKnownStreak))),
        ConfigKey(name: "request_budget", section: .source([.breakingbad]),
                  meaning: declared("The most requests one run makes: \(ConfigLimits.requestBudget.lowerBound) to \(ConfigLimits.requestBudget.upperBound)."),
                  defaultValue: Message(value: String(SourceSettings.defaultRequestBudget))),
        ConfigKey(name: "pause", section: .source([.breakingbad]), meaning: declared("Between two requests: \(ConfigText.milliseconds(ConfigLimits.pauseMilliseconds.lowerBound)) to \(ConfigText.milliseconds(ConfigLimits.pauseMilliseconds.upperBound)) (250ms, 1s)."),
                  defaultValue: Message(value: ConfigText.milliseconds(SourceSettings.defaultPauseMilliseconds))),
        ConfigKey(name: "api_key", section: .source([.weather]),
                  meaning: declared("The OpenWeatherMap key (a file only the daemon's user can read is better: see api_key_file)."), defaultValue: declared("none")),
        ConfigKey(name: "api_key_file", section: .source([.weather]), meaning: declared("A file holding the key (an absolute path)."),
                  defaultValue: declared("none")),
        ConfigKey(name: "lat", section: .source([.weather]), meaning: declared("Latitude, -90 to 90."), defaultValue: Message(value: "37.5665")),
        ConfigKey(name: "lon", section: .source([.weather]), meaning: declared("Longitude, -180 to 180."), defaultValue: Message(value: "126.9780")),
        ConfigKey(name: "units", section: .source([.weather]), meaning: declared("metric, imperial or standard."), defaultValue: Message(value: "metric")),
        ConfigKey(name: "lang", section: .source([.weather]), meaning: declared("The language of descriptions (kr, en, zh_cn, ...)."),
                  defaultValue: declared("the upstream's")),
    ]

    /// The keys `[store]`, `[daemon]` or a source of `kind` allows.
    public static func allowed(in section: Section) -> Set<String> {
        Set(all.filter { key in
            switch (key.section, section) {
            case (.store, .store), (.daemon, .daemon), (.publish, .publish), (.fleet, .fleet), (.metrics, .metrics), (.check, .check): return true
            case (.source(let kinds), .source(let wanted)): return kinds.isEmpty || !kinds.isDisjoint(with: wanted)
            default: return false
            }
        }.map(\.name))
    }
}

/// The feed's limits, in one place.
public enum FeedLimits {
    /// A feed file may be larger than an upstream's answer: a hub's million-quote list is 170 MB.
    public static let maxBytes = 1_024 ... (4 << 30)
    public static let defaultMaxBytes = 1 << 30
    public static let defaultTimeout = 60
    /// How long a signed manifest is valid: a spoke refuses one past it (a frozen or replayed feed).
    public static let validFor = 3_600...(365 * 86_400)
    public static let defaultValidFor = 7 * 86_400
    /// A feed's name: what the signed manifest says it is, pinned by its spokes.
    public static let nameBytes = 1...200
    /// Keys a spoke trusts, or a hub signs with, at once.
    public static let keys = 1...8
}

/// `[publish]`: this host writes a feed of what it syncs.
public struct PublishSettings: Sendable, Equatable {
    public var dir: String
    /// signify secret keys: each signs the manifest (two during a key rotation).
    public var signingKeys: [String]
    /// The feed's name in its signed manifest; nil: this host's name.
    public var name: String?
    public var validFor = FeedLimits.defaultValidFor
    /// Public keys the manifest announces as next: spokes adopt them, so the current key can retire.
    public var nextKeys: [String] = []

    public init(dir: String, signingKey: String? = nil) {
        self.dir = dir
        self.signingKeys = signingKey.map { [$0] } ?? []
    }
}

/// `[fleet]`: this host syncs from a hub's feed.
public struct FleetSettings: Sendable, Equatable {
    public var hub: String
    /// Further URLs of the same feed, tried in order when one fails, is stale or is frozen.
    public var mirrors: [String] = []
    /// The hub's signify public keys: a manifest signed by any of them is taken.
    public var hubKeys: [String]
    /// The feed's name, pinned up front; nil: taken from the first manifest applied, then pinned.
    public var name: String?
    /// A CA certificate to trust for an https hub instead of the system's (a private CA).
    public var caFile: String?
    public var timeout = FeedLimits.defaultTimeout
    public var maxBytes = FeedLimits.defaultMaxBytes

    public init(hub: String, hubKey: String? = nil) {
        self.hub = hub
        self.hubKeys = hubKey.map { [$0] } ?? []
    }

    public var hubKey: String? { hubKeys.first }

    /// The same settings, reading the feed from `mirror` (validators and files are its own).
    public func reading(from mirror: String) -> FleetSettings {
        var copy = self
        copy.hub = mirror
        copy.mirrors = []
        return copy
    }

    /// Whether the hub's URL is https: no request of its feed may then go to plain http.
    public var isHTTPS: Bool { URLText.schemeAndHost(hub)?.scheme == "https" }

    /// The signed manifest for the key numbered `keyNumber` (16 hex digits): one file, one fetch.
    public func signedManifestURL(keyNumber: String) -> String { url(of: "manifest.\(keyNumber).signed") }

    /// The manifest's URL: the feed folder's, with `manifest.json` after it.
    public var manifestURL: String { (hub.hasSuffix("/") ? hub : hub + "/") + ManifestHeader.fileName }

    /// A file of the feed, named relative to the folder (`by-hash/…`).
    public func url(of file: String) -> String { (hub.hasSuffix("/") ? hub : hub + "/") + file }
}

/// How much the daemon logs: `[daemon] log_level` and `quoted run --log-level`, declared once.
public enum LogLevel: String, CaseIterable, Sendable {
    case error, warning, info, debug

    /// Unless `--log-level` or `log_level` says otherwise.
    public static let standard = LogLevel.info

    /// "error, warning, info or debug", in the user's language.
    public static var choicesText: String { choices.text }

    /// "error, warning, info or debug" as a message, to place inside another (a help's).
    /// Its key, "%1$s or %2$s", is OptionValue.choicesText's.
    public static var choices: Message {
        declared("\(allCases.dropLast().map(\.rawValue).joined(separator: ", ")) or \(LogLevel.debug.rawValue)")
    }
}
