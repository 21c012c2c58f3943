import QuoteConfig
import Testing

/// `[publish]` (a hub) and `[fleet]` (a spoke), each key checked as every other is.
@Suite struct FleetConfigurationTests {
    @Test func aHubAndASpokeAreRead() throws {
        let hub = try Configuration.parse("[publish]\ndir = /var/lib/quoted/feed\nsigning_key = /etc/quoted/hub.sec\n", file: "q.conf")
        #expect(hub.publish == PublishSettings(dir: "/var/lib/quoted/feed", signingKey: "/etc/quoted/hub.sec"))
        let spoke = try Configuration.parse("""
            [fleet]
            hub = https://feed.example.org/quotes
            hub_key = /etc/quoted/hub.pub
            timeout = 2m
            max_bytes = 2G
            [source.upbit]
            url = https://mirror.example.org/v1/market/all
            """, file: "q.conf")
        let fleet = try #require(spoke.fleet)
        #expect(fleet.manifestURL == "https://feed.example.org/quotes/manifest.json")
        #expect(fleet.url(of: "by-hash/a.json") == "https://feed.example.org/quotes/by-hash/a.json")
        #expect(fleet.timeout == 120 && fleet.maxBytes == 2 << 30)
        #expect(spoke.source(named: "upbit")?.urlIsOwn == true, "a url of its own keeps upbit direct")
        #expect(spoke.source(named: "happiness")?.urlIsOwn == false)
    }

    @Test(arguments: [
        ("[publish]\nsigning_key = /k\n", "q.conf:1: [publish] needs dir = PATH"),
        ("[publish]\ndir = relative/feed\n", "dir must be an absolute path"),
        ("[fleet]\nhub_key = /k\n", "[fleet] needs hub = URL"),
        ("[fleet]\nhub = ftp://feed.example.org/\n", "expected an http(s) URL"),
        ("[fleet]\nhub = https://user:secret@feed.example.org/\n", "without credentials"),
        ("[fleet]\nhub = http://feed.example.org/\n", "plain http needs hub_key"),
        ("[fleet]\nhub = https://feed.example.org/\nmax_bytes = 9223372036854775807G\n", "from 1K to 4G"),
        ("[fleet]\nhub = https://feed.example.org/\ntimeout = 0s\n", "from 1s to 10m"),
        ("[fleet]\nhub = https://feed.example.org/\nintervall = 1h\n", "unknown key 'intervall' in [fleet]"),
    ])
    func mistakesNameTheLine(text: String, expected: String) {
        do {
            _ = try Configuration.parse(text, file: "q.conf")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error)")
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func plainHTTPIsFineToLoopbackOrWithASignedFeed() throws {
        #expect(try Configuration.parse("[fleet]\nhub = http://127.0.0.1:8080/\n", file: "q.conf").fleet != nil)
        #expect(try Configuration.parse("[fleet]\nhub = http://feed.lan/\nhub_key = /etc/quoted/hub.pub\n", file: "q.conf").fleet != nil)
    }
}
