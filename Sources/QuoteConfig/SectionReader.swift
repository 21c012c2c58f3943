import QuoteBase
/// Reads one section's keys into typed settings, with messages that name the line. A key's
/// problem goes to `problems` and the reading goes on to the next key; a function throws only
/// what leaves it nothing to return (a key the section cannot do without).
struct SectionReader {
    let file: String
    let problems: ConfigProblems

    func error(_ line: Int, _ message: String) -> ConfigError {
        ConfigError(file: file, line: line, message: message)
    }

    /// Each key of `section` that is not one of `allowed` is a problem of its own line.
    func check(_ section: INIFile.Section, allowed: Set<String>) {
        for entry in section.entries where !allowed.contains(entry.key) {
            problems.add(error(entry.line, tr("unknown key '\(entry.key)' in [\(section.name)] (known: \(allowed.sorted().joined(separator: ", ")))")))
        }
    }

    /// Whether no value of `keys` in `section` was refused: a judgement made over a refused
    /// value's default would be a second problem, and a false one.
    func readCleanly(_ section: INIFile.Section, _ keys: Set<String>) -> Bool {
        !section.entries.contains { keys.contains($0.key) && problems.contains(line: $0.line) }
    }

    func path(_ section: INIFile.Section, _ key: String) throws(ConfigError) -> String? {
        guard let entry = section.entries.first(where: { $0.key == key }) else { return nil }
        guard entry.value.hasPrefix("/") else { throw error(entry.line, tr("\(key) must be an absolute path")) }
        return entry.value
    }

    /// Absolute paths separated by commas (at most `FeedLimits.keys`); empty when the key is absent.
    func paths(_ section: INIFile.Section, _ key: String) throws(ConfigError) -> [String] {
        guard let entry = section.entries.first(where: { $0.key == key }) else { return [] }
        let paths = entry.value.split(separator: ",").map { String($0).trimmed }
        guard FeedLimits.keys.contains(paths.count), paths.allSatisfy({ $0.hasPrefix("/") }), Set(paths).count == paths.count else {
            throw error(entry.line, tr("\(key) takes 1 to \(FeedLimits.keys.upperBound) different absolute paths, separated by commas"))
        }
        return paths
    }

    /// `name = TEXT`: a feed's name, printable and at most 200 bytes.
    func feedName(_ section: INIFile.Section) throws(ConfigError) -> String? {
        guard let entry = section.entries.first(where: { $0.key == "name" }) else { return nil }
        guard FeedLimits.nameBytes.contains(entry.value.utf8.count), !entry.value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw error(entry.line, tr("name = '\(entry.value)': 1 to \(FeedLimits.nameBytes.upperBound) bytes of printable text, such as example.org/quotes"))
        }
        return entry.value
    }

    /// `[publish]`: the feed folder, its keys, its name and how long each manifest is valid.
    func publish(_ section: INIFile.Section) throws(ConfigError) -> PublishSettings {
        check(section, allowed: ConfigKey.allowed(in: .publish))
        var publish = PublishSettings(dir: "")
        problems.recording { () throws(ConfigError) in publish.signingKeys = try self.paths(section, "signing_key") }
        problems.recording { () throws(ConfigError) in publish.nextKeys = try self.paths(section, "next_keys") }
        problems.recording { () throws(ConfigError) in publish.name = try self.feedName(section) }
        if let entry = section.entries.first(where: { $0.key == "valid_for" }) {
            problems.recording { () throws(ConfigError) in
                publish.validFor = try self.duration(entry.value, in: FeedLimits.validFor) { expected in
                    self.error(entry.line, "valid_for = '\(entry.value)' in [publish]: expected \(expected)")
                }
            }
        }
        guard let dir = try path(section, "dir") else { throw error(section.line, tr("[publish] needs dir = PATH")) }
        publish.dir = dir
        return publish
    }

    /// A socket path must fit a Unix socket address, and may only replace a socket:
    /// the daemon removes a stale socket there before listening, never anything else.
    func checkSocketPath(_ path: String, line: Int) throws(ConfigError) {
        guard path.utf8.count <= ConfigLimits.socketPathBytes else {
            throw error(line, tr("socket path is \(path.utf8.count) bytes; a Unix socket path holds at most \(ConfigLimits.socketPathBytes)"))
        }
        if let problem = SocketPath.problem(path) { throw error(line, problem) }
    }

    /// `[fleet]`: the hub's URL (https, or http when the feed is signed or the hub is on loopback),
    /// its key, and the limits of a feed request.
    func fleet(_ section: INIFile.Section) throws(ConfigError) -> FleetSettings {
        check(section, allowed: ConfigKey.allowed(in: .fleet))
        var fleet = FleetSettings(hub: "")
        problems.recording { () throws(ConfigError) in fleet.hubKeys = try self.paths(section, "hub_key") }
        problems.recording { () throws(ConfigError) in fleet.name = try self.feedName(section) }
        problems.recording { () throws(ConfigError) in fleet.caFile = try self.path(section, "ca_file") }
        for entry in section.entries {
            let bad = { (expected: String) -> ConfigError in
                self.error(entry.line, tr("\(entry.key) = '\(entry.value)' in [fleet]: expected \(expected)"))
            }
            problems.recording { () throws(ConfigError) in
                if entry.key == "timeout" { fleet.timeout = try self.duration(entry.value, in: ConfigLimits.timeout, bad: bad) }
                if entry.key == "max_bytes" { fleet.maxBytes = try self.size(entry.value, in: FeedLimits.maxBytes, bad: bad) }
            }
        }
        guard let hubEntry = section.entries.first(where: { $0.key == "hub" }) else {
            throw error(section.line, tr("[fleet] needs hub = URL (the hub's feed folder)"))
        }
        // Mirrors, like apt's: tried in order, each checked as the first is.
        let urls = hubEntry.value.split(separator: ",").map { String($0).trimmed }
        guard (1...8).contains(urls.count), Set(urls).count == urls.count else {
            throw error(hubEntry.line, tr("hub takes 1 to 8 different URLs (mirrors of one feed), separated by commas"))
        }
        fleet.hub = urls[0]
        fleet.mirrors = Array(urls.dropFirst())
        // A hub_key refused on its own line is no proof that the feed is unsigned.
        let keysKnown = readCleanly(section, ["hub_key"])
        for url in urls {
            guard let parts = URLText.schemeAndHost(url), ["http", "https"].contains(parts.scheme),
                  !URLText.hasUserInfo(url), url.utf8.count <= ConfigLimits.urlLength else {
                throw error(hubEntry.line, tr("hub = '\(URLText.redacted(url))': expected an http(s) URL without credentials"))
            }
            // TLS says who serves the feed, not who wrote it: a mirror or CDN in between could serve
            // anything. Only a hub on this machine is taken unsigned.
            if fleet.hubKeys.isEmpty, keysKnown, !URLText.isLoopback(host: parts.host) {
                throw error(hubEntry.line, tr("hub: a hub that is not on a loopback address needs hub_key (its signify public key): TLS alone says who serves the feed, not who signed it"))
            }
        }
        return fleet
    }

    /// A source's section: each key's problem, then what the section's keys say together.
    func apply(_ section: INIFile.Section, to settings: inout SourceSettings) {
        let allowed = ConfigKey.allowed(in: .source([settings.kind]))
        check(section, allowed: allowed)
        settings.line = section.line
        var keyFromFile: String?
        // check() has named the unknown keys: each key read here is one of these groups'.
        for entry in section.entries where allowed.contains(entry.key) {
            let bad = { (expected: String) -> ConfigError in
                self.error(entry.line, tr("\(entry.key) = '\(entry.value)' in [\(section.name)]: expected \(expected)"))
            }
            problems.recording { () throws(ConfigError) in
                if try self.applyCommon(entry, to: &settings, bad: bad) { return }
                if try self.applySampling(entry, to: &settings, bad: bad) { return }
                if try self.applyList(entry, in: section.name, to: &settings.listFormat, bad: bad) { return }
                if let key = try self.applyWeather(entry, to: &settings, bad: bad) { keyFromFile = key }
            }
        }
        if let keyFromFile {
            if settings.apiKey != nil {
                problems.add(error(section.line, tr("[\(section.name)] has both api_key and api_key_file: keep one")))
            }
            settings.apiKey = keyFromFile
        }
        checkTogether(section, settings)
    }

    /// What a source's keys say together: its URL, the list keys its format takes, the weather's
    /// key — each judged only over values its section did not refuse.
    private func checkTogether(_ section: INIFile.Section, _ settings: SourceSettings) {
        var judged = settings
        // An allow_http refused is not a "no": plain http is not held against the URL.
        if !readCleanly(section, ["allow_http"]) { judged.allowHTTP = true }
        problems.recording { () throws(ConfigError) in try self.validateURL(of: judged, section: section) }
        if settings.kind == .custom, readCleanly(section, ["format"]) { checkListKeys(section, settings.listFormat) }
        if settings.kind == .weather, settings.enabled, settings.apiKey == nil,
           readCleanly(section, ["enabled", "api_key", "api_key_file"]) {
            problems.add(error(section.line, tr("[\(section.name)] is enabled but has no api_key or api_key_file")))
        }
    }

    // A value in its range, or a message that states the range (from ConfigLimits, never restated).

    private func duration(_ value: String, in range: ClosedRange<Int>, bad: (String) -> ConfigError) throws(ConfigError) -> Int {
        guard let seconds = ConfigValue.duration(value), range.contains(seconds) else {
            throw bad(tr("a duration from \(ConfigText.durations(range)) (whole seconds)"))
        }
        return seconds
    }

    private func size(_ value: String, in range: ClosedRange<Int>, bad: (String) -> ConfigError) throws(ConfigError) -> Int {
        guard let bytes = ConfigValue.size(value), range.contains(bytes) else {
            throw bad(tr("a size from \(ConfigText.sizes(range)), such as 32M or 500K"))
        }
        return bytes
    }

    private func count(_ value: String, in range: ClosedRange<Int>, bad: (String) -> ConfigError) throws(ConfigError) -> Int {
        guard let number = ConfigValue.count(value), range.contains(number) else {
            throw bad(tr("a whole number from \(range.lowerBound) to \(range.upperBound)"))
        }
        return number
    }

    /// The keys every source has; false when `entry` is not one of them.
    private func applyCommon(_ entry: INIFile.Entry, to settings: inout SourceSettings,
                             bad: (String) -> ConfigError) throws(ConfigError) -> Bool {
        let value = entry.value
        switch entry.key {
        case "enabled", "allow_http", "allow_shrink":
            guard let flag = ConfigValue.bool(value) else { throw bad(ConfigValue.boolNames) }
            switch entry.key {
            case "enabled": settings.enabled = flag
            case "allow_http": settings.allowHTTP = flag
            default: settings.allowShrink = flag
            }
        case "url":
            settings.url = value
            settings.urlIsOwn = true
        case "interval":
            // The widest range here; under a minute is refused below unless the host is loopback.
            guard let seconds = ConfigValue.duration(value), seconds >= ConfigLimits.loopbackInterval.lowerBound else {
                throw bad(tr("a duration such as 30m, 6h or 1d"))
            }
            guard seconds <= ConfigLimits.loopbackInterval.upperBound else { throw bad(tr("a duration from \(ConfigText.durations(ConfigLimits.interval))")) }
            settings.interval = seconds
        case "timeout": settings.timeout = try duration(value, in: ConfigLimits.timeout, bad: bad)
        case "max_bytes": settings.maxBytes = try size(value, in: ConfigLimits.maxBytes, bad: bad)
        default:
            return false
        }
        return true
    }

    /// Breaking Bad's sampling keys; false when `entry` is not one of them.
    private func applySampling(_ entry: INIFile.Entry, to settings: inout SourceSettings,
                               bad: (String) -> ConfigError) throws(ConfigError) -> Bool {
        let value = entry.value
        switch entry.key {
        case "productions":
            let names = value.split(separator: ",").map { $0.trimmed }.filter { !$0.isEmpty }
            guard !names.isEmpty, names.count <= 20, names.allSatisfy({ $0.utf8.count <= 100 }) else {
                throw bad(tr("a comma-separated list of productions (at most 20, each at most 100 bytes)"))
            }
            settings.productions = names
        case "known_streak":
            settings.knownStreak = try count(value, in: ConfigLimits.knownStreak, bad: bad)
        case "request_budget":
            settings.requestBudget = try count(value, in: ConfigLimits.requestBudget, bad: bad)
        case "pause":
            guard let milliseconds = ConfigValue.milliseconds(value), ConfigLimits.pauseMilliseconds.contains(milliseconds) else {
                throw bad(tr("a duration from \(ConfigText.milliseconds(ConfigLimits.pauseMilliseconds.lowerBound)) to \(ConfigText.milliseconds(ConfigLimits.pauseMilliseconds.upperBound)), such as 250ms or 1s"))
            }
            settings.pauseMilliseconds = milliseconds
        default:
            return false
        }
        return true
    }

    /// The weather's keys; returns the key read from api_key_file, if that was the entry.
    private func applyWeather(_ entry: INIFile.Entry, to settings: inout SourceSettings,
                              bad: (String) -> ConfigError) throws(ConfigError) -> String? {
        let value = entry.value
        var keyFromFile: String?
        switch entry.key {
        case "api_key":
            guard !value.isEmpty else { throw bad(tr("the OpenWeatherMap API key")) }
            settings.apiKey = value
            settings.apiKeyIsInline = true
        case "api_key_file":
            guard value.hasPrefix("/") else { throw bad(tr("an absolute path")) }
            let key: String
            do {
                key = String(decoding: try ConfigFile.read(value), as: UTF8.self).trimmed
            } catch {
                throw self.error(entry.line, "api_key_file \(value): \(error.reason)")
            }
            guard !key.isEmpty else { throw error(entry.line, tr("api_key_file \(value) is empty")) }
            keyFromFile = key
        case "lat":
            guard let degrees = Double(value), (-90...90).contains(degrees) else { throw bad(tr("a latitude from -90 to 90")) }
            settings.latitude = degrees
        case "lon":
            guard let degrees = Double(value), (-180...180).contains(degrees) else { throw bad(tr("a longitude from -180 to 180")) }
            settings.longitude = degrees
        case "units":
            let units = ["metric", "imperial", "standard"]
            guard units.contains(value) else { throw bad(tr("\(units.dropLast().joined(separator: ", ")) or \(units[units.count - 1])")) }
            settings.units = value
        case "lang":
            guard (1...16).contains(value.utf8.count),
                  value.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") }) else {
                throw bad(tr("a language code such as kr, en or zh_cn"))
            }
            settings.language = value
        default:
            break
        }
        return keyFromFile
    }

    private func validateURL(of settings: SourceSettings, section: INIFile.Section) throws(ConfigError) {
        let line = section.entries.first(where: { $0.key == "url" })?.line ?? section.line
        guard !settings.url.isEmpty else { throw error(section.line, tr("[\(section.name)] needs a url")) }
        // Credentials in a URL would be stored in the store (readable by the daemon's group) and printed.
        if URLText.hasUserInfo(settings.url) {
            throw error(line, tr("""
                url in [\(section.name)] holds a user name or password: credentials do not belong in a URL \
                (put an API key in api_key_file; quoted sends no HTTP authentication)
                """))
        }
        guard settings.url.utf8.count <= ConfigLimits.urlLength,
              !settings.url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }),
              let parts = URLText.schemeAndHost(settings.url) else {
            throw error(line, tr("url in [\(section.name)] is not an http(s) URL: '\(URLText.redacted(String(settings.url.prefix(200))))'"))
        }
        let loopback = URLText.isLoopback(host: parts.host)
        if parts.scheme == "http", !loopback, !settings.allowHTTP {
            throw error(line, tr("url in [\(section.name)] uses plain http; use https, or say allow_http = true"))
        }
        // Short intervals are for tests against a local server; upstreams deserve better.
        if settings.interval < ConfigLimits.interval.lowerBound, !loopback {
            throw error(section.entries.first(where: { $0.key == "interval" })?.line ?? section.line,
                        tr("interval in [\(section.name)] is under 1 minute (allowed only for loopback hosts)"))
        }
    }
}

