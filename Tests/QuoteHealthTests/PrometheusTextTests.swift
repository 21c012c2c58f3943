import QuoteHealth
import QuoteModels
import Testing

@Suite struct PrometheusTextTests {
    func source(_ name: String) -> SourceHealth {
        var source = SourceHealth(name: name)
        source.intervalSeconds = 3_600
        source.lastAttempt = 1_000
        source.lastSuccess = 1_000
        source.nextDue = 4_600
        source.lastDurationMilliseconds = 412
        source.lastHTTPStatus = 200
        source.fetchedBytesTotal = 5_000
        source.rowsChangedTotal = 7
        source.syncsOKTotal = 3
        source.syncsFailedTotal = 1
        source.rows = [TableRows(table: "quotes", count: 42)]
        return source
    }

    @Test func labelValuesAreEscaped() {
        #expect(PrometheusText.escapeLabel("a\"b\\c\nd") == "a\\\"b\\\\c\\nd")
        var odd = source("custom.we\"ird\\na\nme")
        odd.rows = []
        let text = PrometheusText.render(MetricsSnapshot(version: "1.0.0", sources: [odd]))
        #expect(text.contains("quoted_source_up{source=\"custom.we\\\"ird\\\\na\\nme\"} 1\n"))
        // No raw newline inside a sample: every line is a comment or name{labels} value.
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.hasPrefix("quoted_"))
        }
    }

    @Test func everyFamilyHasHelpAndTypeAndNoSampleHasATimestamp() {
        let snapshot = MetricsSnapshot(
            version: "1.2.3", sources: [source("upbit"), source("happiness")],
            hubFeeds: [FeedHealth(name: "example.org/quotes", serial: 9, generated: 900, validUntil: 9_000)],
            spokeFeeds: [FeedHealth(name: "example.org/quotes", serial: 8, generated: 800, validUntil: 8_000, checkedAt: 950)],
            daemon: DaemonHealth(startTime: 500, syncsTotal: 4))
        let lines = PrometheusText.render(snapshot).split(separator: "\n").map(String.init)
        var declared: [String: (help: Bool, type: Bool)] = [:]
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            if words[0] == "#" {
                declared[words[2], default: (false, false)].help = declared[words[2], default: (false, false)].help || words[1] == "HELP"
                declared[words[2], default: (false, false)].type = declared[words[2], default: (false, false)].type || words[1] == "TYPE"
                continue
            }
            let name = String(words[0].prefix { $0 != "{" })
            #expect(declared[name]?.help == true && declared[name]?.type == true, "\(name) undeclared")
            // name{labels} value, and nothing after the value: no timestamp.
            #expect(words.count == 2, "\(line)")
            #expect(Double(words[1]) != nil)
        }
        #expect(lines.contains("quoted_build_info{version=\"1.2.3\"} 1"))
        #expect(lines.contains("quoted_source_last_sync_duration_seconds{source=\"upbit\"} 0.412"))
        #expect(lines.contains("quoted_source_syncs_total{result=\"failed\",source=\"upbit\"} 1") == false)
        #expect(lines.contains("quoted_source_syncs_total{source=\"upbit\",result=\"failed\"} 1"))
        #expect(lines.contains("quoted_hub_feed_serial{feed=\"example.org/quotes\"} 9"))
        #expect(lines.contains("quoted_spoke_feed_last_checked_timestamp_seconds{feed=\"example.org/quotes\"} 950"))
        #expect(lines.contains("quoted_daemon_syncs_total 4"))
        #expect(lines.contains("# TYPE quoted_source_fetched_bytes_total counter"))
    }

    @Test func samplesAreSortedAndFamiliesInTheirFixedOrder() {
        let text = PrometheusText.render(MetricsSnapshot(version: "1", sources: [source("upbit"), source("happiness")]))
        let up = text.split(separator: "\n").filter { $0.hasPrefix("quoted_source_up{") }
        #expect(up == ["quoted_source_up{source=\"happiness\"} 1", "quoted_source_up{source=\"upbit\"} 1"])
        let families = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE") }.map { $0.split(separator: " ")[2] }
        #expect(families.first == "quoted_build_info")
        #expect(families.firstIndex(of: "quoted_source_up")! < families.firstIndex(of: "quoted_source_syncs_total")!)
    }

    @Test func unknownValuesAreLeftOut() {
        var never = SourceHealth(name: "custom.new")
        never.intervalSeconds = 60
        let text = PrometheusText.render(MetricsSnapshot(version: "1", sources: [never]))
        #expect(text.contains("quoted_source_up{source=\"custom.new\"} 0"))
        #expect(!text.contains("quoted_source_last_success_timestamp_seconds"))
        #expect(!text.contains("quoted_source_last_http_status"))
        #expect(!text.contains("quoted_source_failing_since_timestamp_seconds"))
        #expect(!text.contains("quoted_daemon_"))
        #expect(text.contains("quoted_source_syncs_total{source=\"custom.new\",result=\"ok\"} 0"))
    }

    @Test func aSpokesSourceCarriesItsFeed() {
        var fed = source("upbit")
        fed.feed = "hub"
        let text = PrometheusText.render(MetricsSnapshot(version: "1", sources: [fed]))
        #expect(text.contains("quoted_source_rows{source=\"upbit\",feed=\"hub\",table=\"quotes\"} 42"))
    }
}
