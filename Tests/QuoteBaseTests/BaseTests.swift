@testable import QuoteBase
import Testing

/// What every module leans on: URL facts, paths, times, byte counts.
@Suite struct BaseTests {
    @Test(arguments: [
        ("https://api.upbit.com/v1/market/all?is_details=true", "https://api.upbit.com/v1/market/all"),
        ("https://alice:s3cret@example.com/l.json", "https://***@example.com/l.json"),
        ("https://example.com/w?appid=KEY#frag", "https://example.com/w"),
    ])
    func urlsAreRedactedOfEverythingThatCanBeASecret(url: String, expected: String) {
        #expect(URLText.redacted(url) == expected)
    }

    @Test func urlFacts() {
        #expect(URLText.schemeAndHost("https://Example.com:8443/x")?.scheme == "https")
        #expect(URLText.isLoopback(host: "127.0.0.1") && URLText.isLoopback(host: "localhost") && !URLText.isLoopback(host: "example.com"))
        #expect(URLText.hasUserInfo("http://u@h/") && !URLText.hasUserInfo("http://h/@x"))
        #expect(URLText.queryEncoded("Better Call Saul & 행복") == "Better%20Call%20Saul%20%26%20%ED%96%89%EB%B3%B5")
    }

    @Test func theCommandLineReadFromArgvIsTheStandardLibrarysOwn() {
        #expect(Environment.arguments() == Array(CommandLine.arguments.dropFirst()))
    }

    @Test func paths() {
        #expect(Path.parent(of: "/var/lib/quoted/quotes.db") == "/var/lib/quoted")
        #expect(Path.parent(of: "/x") == "/" && Path.parent(of: "x") == ".")
        #expect(Path.join("/a/", "b") == "/a/b" && Path.join("/a", "b") == "/a/b")
    }

    @Test func relativeTimesReadAsAPersonSaysThem() {
        let now = 1_800_000_000
        #expect(UnixTime.relative(now - 30, now: now) == "30 s ago")
        #expect(UnixTime.relative(now + 3_600, now: now) == "in 1 h")
        #expect(UnixTime.relative(now - 3 * 86_400, now: now) == "3 d ago")
        // Extremes a hostile store or feed can hold: no trap.
        #expect(UnixTime.relative(Int.min, now: now).hasSuffix("d ago"))
        #expect(UnixTime.relative(Int.max, now: now).hasPrefix("in "))
        #expect(UnixTime.timestamp(0) == "1970-01-01 00:00 UTC" || UnixTime.timestamp(0).hasPrefix("1970-01-01"))
    }

    /// People's relative times and dates: with no catalog open, today's English byte for byte
    /// (the Korean forms are checked end to end, through the catalog).
    @Test func peoplesTimesAreTodaysEnglishWithoutACatalog() {
        let now = 1_800_000_000
        for offset in [-30, -59, -60, -3_599, -3_600, -172_799, -172_800, -3 * 86_400, 5, 300, 3_600, 200_000] {
            #expect(UnixTime.relativeForPeople(now + offset, now: now) == UnixTime.relative(now + offset, now: now), "\(offset)")
        }
        #expect(UnixTime.relativeForPeople(now - 180, now: now) == "3 min ago")
        #expect(UnixTime.relativeForPeople(Int.min, now: now).hasSuffix(" d ago"))
        // "2027-01-15 08:00" then the zone's name: the strftime layout gives the old bytes.
        let stamp = UnixTime.localTimestamp(now)
        #expect(stamp.wholeMatch(of: #/\d{4}-\d{2}-\d{2} \d{2}:\d{2}( \S+)?/#) != nil, "\(stamp)")
        #expect(stamp.hasPrefix(UnixTime.dateString(day: UnixTime.localDay(now))))
    }

    @Test func byteCountsAsTheConfigurationWritesThem() {
        #expect(ByteCount.configUnits(32 << 20) == "32M" && ByteCount.configUnits(1 << 30) == "1G" && ByteCount.configUnits(1_500) == "1500")
    }

    @Test func aMissingFileIsNamedWithItsReason() {
        do {
            _ = try FileReader.read("/nonexistent/quoted-file", limit: 10)
            Issue.record("read a file that is not there")
        } catch {
            #expect(error.reason.contains("No such file") || error.reason.contains("no such file"), "\(error.reason)")
        }
    }
}
