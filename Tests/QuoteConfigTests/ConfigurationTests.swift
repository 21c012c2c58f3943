import Foundation
import QuoteBase
@testable import QuoteConfig
import Testing
import TestSupport

@Suite struct ConfigurationTests {
    func parse(_ text: String) throws -> Configuration {
        try Configuration.parse(text, file: "quoted.conf")
    }

    func error(_ text: String) -> ConfigError? {
        #expect(throws: ConfigError.self) { try parse(text) }
    }

    /// happiness follows its upstream's day: an interval there is said to do nothing, not ignored in silence.
    @Test func anIntervalForHappinessIsWarnedAbout() throws {
        let configuration = try parse("[source.happiness]\nenabled = true\ninterval = 2h\n")
        #expect(configuration.warnings == ["quoted.conf:3: interval does not apply to [source.happiness]: it syncs once a day, "
                                           + "a few minutes after 00:00 UTC, when the upstream's quote changes"])
        #expect(try parse("[source.upbit]\ninterval = 2h\n").warnings.isEmpty)
    }

    @Test func everythingHasAWorkingDefault() throws {
        let configuration = try parse("")
        #expect(configuration.enabledSources.map(\.name) == ["happiness", "breakingbad", "upbit"])
        #expect(configuration.source(named: "weather")?.enabled == false)
        #expect(configuration.source(named: "happiness")?.interval == 86_400)
        #expect(configuration.source(named: "upbit")?.url == "https://api.upbit.com/v1/market/all?is_details=true")
        #expect(configuration.source(named: "upbit")?.timeout == 15)
        #expect(configuration.source(named: "upbit")?.maxBytes == 32 << 20)
    }

    @Test func theDocumentedExampleParses() throws {
        let configuration = try parse("""
            [store]
            path = /var/lib/quoted/quotes.db

            [source.custom.stoics]          ; any number of custom lists
            url = https://gist.githubusercontent.com/USER/GIST/raw/quotes.json
            interval = 1h

            [source.happiness]
            enabled = true
            url = https://api.sobabear.com/happiness/random-quote
            interval = 24h

            [source.breakingbad]
            enabled = true
            url = https://breaking-bad-api-six.vercel.app/api
            productions = Breaking Bad, Better Call Saul, El Camino
            interval = 6h

            [source.upbit]
            enabled = true
            url = https://api.upbit.com/v1/market/all?is_details=true
            interval = 1h
            timeout = 20s
            max_bytes = 8M

            [source.weather]
            enabled = true
            api_key = abc123
            lat = 37.5665
            lon = 126.9780
            units = metric
            interval = 30m
            """)
        #expect(configuration.storePath == "/var/lib/quoted/quotes.db")
        #expect(configuration.sources.first?.name == "custom.stoics")
        #expect(configuration.source(named: "custom.stoics")?.interval == 3_600)
        #expect(configuration.source(named: "breakingbad")?.productions == ["Breaking Bad", "Better Call Saul", "El Camino"])
        #expect(configuration.source(named: "upbit")?.timeout == 20)
        #expect(configuration.source(named: "upbit")?.maxBytes == 8 << 20)
        #expect(configuration.source(named: "weather")?.apiKey == "abc123")
        #expect(configuration.source(named: "weather")?.interval == 1_800)
        #expect(configuration.source(named: "weather")?.description.contains("abc123") == false)
    }

    @Test(arguments: [
        ("[source.upbit]\nintervall = 1h", 2, "unknown key 'intervall' in [source.upbit]"),
        ("[source.nope]\nurl = https://x", 1, "unknown section [source.nope]"),
        ("[stuff]", 1, "unknown section [stuff]"),
        ("[source.upbit]\ninterval = soon", 2, "interval = 'soon' in [source.upbit]: expected a duration"),
        ("[source.upbit]\nenabled = maybe", 2, "expected true or false"),
        ("\n\n[source.weather]\nenabled = true", 3, "[source.weather] is enabled but has no api_key or api_key_file"),
        ("[source.happiness]\nurl = http://example.com/q", 2, "plain http"),
        ("[source.happiness]\nurl = ftp://example.com/q", 2, "not an http(s) URL"),
        ("[source.upbit]\ninterval = 30s", 2, "under 1 minute"),
        ("key = value", 1, "before any [section]"),
        ("[source.upbit\n", 1, "section header"),
        ("[source.upbit]\njust words", 2, "expected 'key = value'"),
        ("[source.custom.a]\ninterval = 1h", 1, "needs a url"),
        ("[source.custom.bad name]\nurl = https://x", 1, "list name"),
        ("[source.weather]\napi_key_file = /nonexistent/key", 2, "api_key_file /nonexistent/key"),
        ("[source.weather]\nlat = 200", 2, "latitude"),
        ("[store]\npath = relative.db", 2, "absolute path"),
        ("[source.upbit]\ntimeout = 1h", 2, "from 1s to 10m"),
        ("[source.upbit]\nurl = https://a\nurl = https://b", 3, "appears twice"),
    ])
    func mistakesNameTheFileLineAndKey(text: String, line: Int, message: String) {
        let error = error(text)
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("quoted.conf:\(line): ") == true, "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    /// Every mistake of the file at once, in line order, as a compiler names them: not one a run,
    /// in whatever order the reading met them (the unknown key on line 4 used to come first).
    @Test func everyMistakeIsNamedInLineOrder() {
        let error = error("""
            [source.custom.x]
            interval = forever
            timeout = x
            bogus = 1
            url = https://example.org/x.json
            [source.weather
            lat = 200
            [source.upbit]
            enabled = maybe
            just words
            [check]
            critical_after = soon
            """)
        let all = error?.all ?? []
        #expect(all.map(\.line) == [2, 3, 4, 6, 9, 10, 12], "\(all)")
        #expect(error?.line == 2 && error?.message.hasPrefix("interval = 'forever' in [source.custom.x]") == true, "\(String(describing: error))")
        #expect(all[2].message.hasPrefix("unknown key 'bogus' in [source.custom.x]"), "\(all[2])")
        #expect(all[3].message.contains("section header"), "\(all[3])")
        #expect(all.allSatisfy { $0.file == "quoted.conf" && $0.description.hasPrefix("quoted.conf:\($0.line): ") })
        #expect(error?.description == all.first?.description, "the first alone is the one-line description")
    }

    /// A value refused is not judged a second time over its default: no plain-http complaint for an
    /// allow_http that was not understood, no format mismatch for a format that was not, no missing
    /// key for a key file that could not be read, no validity against intervals for a valid_for.
    @Test func aRefusedValueBringsNoSecondFalseProblem() {
        let error = error("""
            [source.custom.y]
            url = http://example.org/y.json
            allow_http = perhaps
            format = xml
            split = line
            [source.weather]
            enabled = true
            api_key_file = /nonexistent/key
            [publish]
            dir = /srv/feed
            valid_for = soon
            """)
        #expect(error?.all.map(\.line) == [3, 4, 8, 11], "\(String(describing: error?.all))")
    }

    /// What `status --json` calls configured: a source quoted syncs under this configuration.
    @Test func whatTheConfigurationSyncs() throws {
        let configuration = try parse("""
            [source.custom.on]
            url = https://example.org/on.json
            [source.custom.off]
            url = https://example.org/off.json
            enabled = false
            """)
        #expect(configuration.syncs("custom.on", fromHub: false))
        #expect(configuration.syncs("happiness", fromHub: false), "a fixed source is synced by default")
        #expect(!configuration.syncs("weather", fromHub: false), "weather is off by default")
        #expect(!configuration.syncs("custom.off", fromHub: false))
        #expect(!configuration.syncs("custom.imported", fromHub: false), "a list the configuration does not name")
        #expect(configuration.syncs("custom.hublist", fromHub: true), "a hub's list the feed brings")
        #expect(!configuration.syncs("custom.off", fromHub: true), "turned off, even when the feed has it")
    }

    @Test func loopbackHostsMayUsePlainHTTPAndShortIntervals() throws {
        let configuration = try parse("""
            [source.happiness]
            url = http://127.0.0.1:8080/q
            interval = 2s
            [source.custom.local]
            url = http://localhost:9/list.json
            interval = 5s
            [source.upbit]
            url = http://upbit.internal/m
            allow_http = true
            """)
        #expect(configuration.source(named: "happiness")?.interval == 2)
        #expect(configuration.source(named: "custom.local") != nil)
        #expect(configuration.source(named: "upbit")?.allowHTTP == true)
    }

    @Test func commentsAndQuotesAreHandled() throws {
        let configuration = try parse("""
            # a comment
            ; another
            [source.custom.x]   # trailing
            url = https://example.com/list.json#frag   ; comment after a URL with a fragment
            interval = "2h"
            """)
        #expect(configuration.source(named: "custom.x")?.url == "https://example.com/list.json#frag")
        #expect(configuration.source(named: "custom.x")?.interval == 7_200)
    }

    @Test(arguments: [("30s", 30), ("5m", 300), ("1h", 3_600), ("1d", 86_400), ("1h30m", 5_400), ("2d 12h", 216_000)])
    func durations(text: String, seconds: Int) {
        #expect(ConfigValue.duration(text) == seconds)
    }

    @Test(arguments: ["", "5", "m", "1x", "-1h", "1.5h"])
    func badDurations(text: String) {
        #expect(ConfigValue.duration(text) == nil)
    }

    @Test func aWorldReadableInlineKeyIsWarnedAbout() throws {
        let temporary = TemporaryFolder("quoted-config")
        let folder = temporary.path
        let path = folder + "/quoted.conf"
        try "[source.weather]\nenabled = true\napi_key = s3cret\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        let readable = try Configuration.load(path: path)
        #expect(readable.warnings.count == 1)
        #expect(readable.warnings.first?.contains("s3cret") == false)
        chmod(path, 0o640)
        #expect(try Configuration.load(path: path).warnings.first?.contains("its group can read") == true)
        chmod(path, 0o600)
        #expect(try Configuration.load(path: path).warnings.isEmpty)

        let keyFile = folder + "/owm.key"
        try "  filekey\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        try "[source.weather]\nenabled = true\napi_key_file = \(keyFile)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        let fromFile = try Configuration.load(path: path)
        #expect(fromFile.source(named: "weather")?.apiKey == "filekey")
        #expect(fromFile.warnings.isEmpty)
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: ConfigError.self) { try Configuration.load(path: "/nonexistent/quoted.conf") }
    }

    @Test func urlFacts() {
        #expect(URLText.schemeAndHost("https://user@Example.com:8443/a?b")! == ("https", "example.com"))
        #expect(URLText.schemeAndHost("http://[::1]:80/x")! == ("http", "::1"))
        #expect(URLText.isLoopback(host: "127.3.4.5"))
        #expect(!URLText.isLoopback(host: "127.example.com"))
        #expect(URLText.redacted("https://api.x/weather?appid=KEY&lat=1") == "https://api.x/weather")
    }
}
