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
        ("[fleet]\nhub = http://feed.example.org/\n", "needs hub_key"),
        ("[fleet]\nhub = https://feed.example.org/\n", "TLS alone says who serves the feed"),
        ("[fleet]\nhub = https://feed.example.org/\nhub_key = /k\nmax_bytes = 9223372036854775807G\n", "from 1K to 4G"),
        ("[fleet]\nhub = https://feed.example.org/\nhub_key = /k\ntimeout = 0s\n", "from 1s to 10m"),
        ("[fleet]\nhub = https://feed.example.org/\nhub_key = /k\nintervall = 1h\n", "unknown key 'intervall' in [fleet]"),
        ("[fleet]\nhub = https://feed.example.org/\nhub_key = /a, relative\n", "different absolute paths"),
        ("[fleet]\nhub = https://feed.example.org/\nhub_key = /a, /a\n", "different absolute paths"),
        ("[fleet]\nhub = https://feed.example.org/\nhub_key = /a\nname = \n", "printable text"),
        ("[publish]\ndir = /f\nvalid_for = 30m\n", "valid_for = '30m' in [publish]"),
        ("[publish]\ndir = /f\nvalid_for = 1h\n", "at least twice the shortest enabled source's interval"),
        ("[publish]\ndir = /f\nname = \(String(repeating: "n", count: 201))\n", "1 to 200 bytes of printable text"),
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

    @Test func aRotationTakesSeveralKeysAndTheFeedHasAName() throws {
        let hub = try Configuration.parse("""
            [publish]
            dir = /var/cache/quoted/feed
            signing_key = /etc/quoted/old.sec, /etc/quoted/new.sec
            next_keys = /etc/quoted/new.pub
            name = example.org/quotes
            valid_for = 3d
            """, file: "q.conf")
        let publish = try #require(hub.publish)
        #expect(publish.signingKeys == ["/etc/quoted/old.sec", "/etc/quoted/new.sec"])
        #expect(publish.nextKeys == ["/etc/quoted/new.pub"] && publish.name == "example.org/quotes" && publish.validFor == 3 * 86_400)
        #expect(try Configuration.parse("[publish]\ndir = /f\n", file: "q.conf").publish?.validFor == 7 * 86_400)
        let spoke = try #require(try Configuration.parse("[fleet]\nhub = https://h/\nhub_key = /a.pub, /b.pub\nname = example.org/quotes\n", file: "q.conf").fleet)
        #expect(spoke.hubKeys == ["/a.pub", "/b.pub"] && spoke.name == "example.org/quotes" && spoke.isHTTPS)
        #expect(spoke.signedManifestURL(keyNumber: "0102030405060708") == "https://h/manifest.0102030405060708.signed")
    }

    @Test func plainHTTPIsFineToLoopbackOrWithASignedFeed() throws {
        #expect(try Configuration.parse("[fleet]\nhub = http://127.0.0.1:8080/\n", file: "q.conf").fleet != nil)
        #expect(try Configuration.parse("[fleet]\nhub = http://feed.lan/\nhub_key = /etc/quoted/hub.pub\n", file: "q.conf").fleet != nil)
    }
}
