import QuoteConfig
import Testing

/// What a spoke takes from its hub's feed: the one rule its sync and its health reading share.
@Suite struct FleetScopeTests {
    /// Happiness by default, Breaking Bad named in a section, upbit direct, weather off.
    let scope: FleetScope

    init() throws {
        scope = FleetScope(try Configuration.parse("""
            [fleet]
            hub = http://127.0.0.1:9/feed/
            [source.breakingbad]
            interval = 2h
            [source.upbit]
            url = https://mirror.example.org/v1/market/all
            [source.custom.off]
            url = https://example.org/off.json
            enabled = false
            """, file: "q.conf"))
    }

    @Test func theFeedAnswersForItsOwnSourcesAndForEveryEnabledOneWithoutAURL() {
        let names = scope.sources(fed: ["custom.hub", "custom.off", "upbit"]).map(\.name)
        #expect(names == ["breakingbad", "custom.hub", "happiness"],
                "a list only the hub names is fed; a url of its own or enabled = false keeps the feed off")
    }

    /// A hub's list has no schedule of its own: it comes with every read of the feed, which the
    /// configured sources from the feed make (Breaking Bad every 2 h, happiness daily).
    @Test func aSourceTheConfigurationDoesNotNameSyncsAtTheFeedsInterval() throws {
        let list = try #require(scope.sources(fed: ["custom.hub"]).first { $0.name == "custom.hub" })
        #expect(list.interval == 7_200 && list.kind == .custom)
        #expect(scope.settings(for: "breakingbad").interval == 7_200, "a configured source keeps its own interval")
        #expect(scope.settings(for: "happiness").interval == 86_400)
        let direct = FleetScope(try Configuration.parse("""
            [fleet]
            hub = http://127.0.0.1:9/feed/
            [source.happiness]
            enabled = false
            [source.breakingbad]
            enabled = false
            [source.upbit]
            url = https://mirror.example.org/v1/market/all
            """, file: "q.conf"))
        #expect(direct.settings(for: "custom.hub").interval == FleetScope.defaultInterval,
                "no configured source reads the feed: the hourly default")
    }

    @Test func beforeTheFeedBroughtAnythingEveryOneItWouldAnswerForIsWatched() {
        #expect(scope.watched(fed: []).map(\.name) == ["breakingbad", "happiness"])
    }

    @Test func onceTheFeedBroughtSomethingASourceHeldOnlyByDefaultThatItLacksIsNotWatched() {
        let watched = scope.watched(fed: ["custom.hub"]).map(\.name)
        #expect(watched == ["breakingbad", "custom.hub"],
                "happiness, held by default and never fed, is passed over by the sync; breakingbad, named, fails there")
    }
}
