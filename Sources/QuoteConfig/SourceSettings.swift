import QuoteModels

import QuoteBase
/// One upstream's settings, after validation. Times in seconds, sizes in bytes.
public struct SourceSettings: Sendable, Equatable {
    /// The store's vocabulary (`builtin` is never configured).
    public typealias Kind = SourceKind

    /// The source name used everywhere: `happiness`, `custom.NAME`, ...
    public var name: String
    public var kind: Kind
    public var enabled: Bool
    public var url: String
    public var interval: Int
    /// Whether the configuration set `url` itself: such a source stays direct on a spoke.
    public var urlIsOwn = false
    public var allowHTTP = false
    public var timeout = Self.defaultTimeout
    public var maxBytes = Self.defaultMaxBytes
    /// The defaults, named once: the settings start from them and quoted.conf(5) prints them.
    public static let defaultTimeout = 15
    public static let defaultMaxBytes = 32 << 20
    public static let defaultKnownStreak = 20
    public static let defaultRequestBudget = 200
    public static let defaultPauseMilliseconds = 250
    /// The config line of the source's section (0 for built-in defaults), for messages.
    public var line = 0

    // custom lists
    public var allowShrink = false
    /// How the list is written (`format`, `items`, `fields`, `split`, `author_pattern`, `archive`).
    public var listFormat = ListFormat.json

    // breakingbad
    public var productions = ["Breaking Bad", "Better Call Saul", "El Camino"]
    /// Stop sampling a production after this many already-known quotes in a row.
    public var knownStreak = Self.defaultKnownStreak
    /// The most requests one run may make.
    public var requestBudget = Self.defaultRequestBudget
    /// The pause between two requests, in milliseconds.
    public var pauseMilliseconds = Self.defaultPauseMilliseconds

    // weather
    public var apiKey: String?
    /// The key was written in the config file itself (not api_key_file).
    public var apiKeyIsInline = false
    public var latitude = 37.5665
    public var longitude = 126.9780
    public var units = "metric"
    public var language: String?

    public init(name: String, kind: Kind, enabled: Bool, url: String, interval: Int) {
        self.name = name
        self.kind = kind
        self.enabled = enabled
        self.url = url
        self.interval = interval
    }

    /// The longest a whole sync of this source may take: generous for the sampling source.
    public var deadline: Int {
        kind == .breakingbad ? max(timeout * 4, requestBudget * (pauseMilliseconds + 1_000) / 1_000) : timeout * 3
    }

    public static func defaults() -> [SourceSettings] {
        [
            SourceSettings(name: SourceName.happiness, kind: .happiness, enabled: true,
                           url: "https://api.sobabear.com/happiness/random-quote", interval: 86_400),
            SourceSettings(name: SourceName.breakingbad, kind: .breakingbad, enabled: true,
                           url: "https://breaking-bad-api-six.vercel.app/api", interval: 6 * 3_600),
            SourceSettings(name: SourceName.upbit, kind: .upbit, enabled: true,
                           url: "https://api.upbit.com/v1/market/all?is_details=true", interval: 3_600),
            SourceSettings(name: SourceName.weather, kind: .weather, enabled: false,
                           url: "https://api.openweathermap.org/data/2.5/weather", interval: 30 * 60),
        ]
    }
}

extension SourceSettings: CustomStringConvertible {
    /// Never shows the API key.
    // English on purpose: a debugging description, for logs and test failures.
    public var description: String {
        "\(name) (\(enabled ? "enabled" : "disabled"), \(URLText.redacted(url)), every \(interval) s"
            // English on purpose: part of the debugging description above.
            + (apiKey == nil ? ")" : ", key set)")
    }
}
