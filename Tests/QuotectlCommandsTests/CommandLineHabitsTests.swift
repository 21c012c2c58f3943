import Foundation
@testable import QuoteStore
import QuoteModels
import QuoteText
import Testing
import TestSupport

/// fortune's habits, terminal output and what quotectl never does by mistake.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct CommandLineHabitsTests {
    let scratch = Scratch()
    var quotectl: InProcessQuotectl
    var store: String { scratch.file("q.db") }

    init() throws {
        quotectl = InProcessQuotectl(home: scratch.path)
        quotectl.environment["XDG_STATE_HOME"] = scratch.file("state")
        let list = (1...1_000).map { #"{"id": \#($0), "category": "c", "text": "big list quote \#($0)", "source": "X"}"# }
        let file = scratch.write("big.json", "[" + list.joined(separator: ",") + "]")
        #expect(try quotectl.run(["--db", store, "import", file, "--name", "big"]).status == 0)
    }

    func json(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try quotectl.run(["--db", store] + arguments + ["--json"])
        return result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func countGivesDistinctQuotes() throws {
        let quotes = try json(["random", "-n", "5", "--source", "builtin"])
        #expect(quotes.count == 5)
        #expect(Set(quotes.compactMap { $0["id"] as? String }).count == 5)
        #expect(try json(["random", "--count", "50", "--author", "Lao Tzu"]).count < 50)
    }

    /// 264 built-ins against a 1,000-quote list: uniform picks favour the list ~4:1; -e weighs
    /// the two sources equally; percentages set the shares. (200 draws each: the bounds are
    /// many standard deviations wide.)
    /// Work bounded by what exists: -n beyond the matches costs what the matches cost (it
    /// burned a core for minutes at -n 1000000000), and the largest number traps nothing.
    @Test(arguments: ["1000000000", "9223372036854775807", "264", "300"])
    func aCountBeyondTheMatchesGivesEachMatchOnce(count: String) throws {
        let quotes = try json(["random", "-n", count, "--source", "builtin"])
        #expect(quotes.count == min(Int(count)!, 264))
        #expect(Set(quotes.compactMap { $0["id"] as? String }).count == quotes.count)
        let weighted = try json(["random", "-n", count, "50%", "builtin", "custom.big"])
        #expect(weighted.count == min(Int(count)!, 1_264))
    }

    @Test func sourcesCanBeWeighedAsFortuneDoes() throws {
        func share(_ arguments: [String]) throws -> Double {
            var big = 0
            for _ in 0..<100 { big += try json(["random"] + arguments).filter { $0["source"] as? String == "custom.big" }.count }
            return Double(big) / 100
        }
        #expect((0.65...0.92).contains(try share([])))
        #expect((0.30...0.70).contains(try share(["-e"])))
        #expect((0.0...0.25).contains(try share(["90%", "builtin", "10%", "custom.big"])))
        let bad = try quotectl.run(["--db", store, "random", "80%", "builtin", "30%", "custom.big"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("more than 100%"), "\(bad.stderr)")
        let missing = try quotectl.run(["--db", store, "random", "50%", "weather"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no quote from weather matches"), "\(missing.stderr)")
    }

    /// Sources named as words are the only ones drawn from, as with --source: fewer quotes than
    /// -n asks when they hold fewer, never the rest from other sources — on the random picks'
    /// path, the shuffle's (-n over 64) and --unseen's.
    @Test func namedSourcesAreTheOnlyOnesDrawnFrom() throws {
        for (name, text) in [("zen", "The zen quote."), ("esc", "The escape quote.")] {
            let file = scratch.write(name + ".json", #"[{"id": 1, "text": "\#(text)", "source": "A"}]"#)
            #expect(try quotectl.run(["--db", store, "import", file, "--name", name]).status == 0)
        }
        func sources(_ arguments: [String]) throws -> [String] {
            try json(["random"] + arguments).compactMap { $0["source"] as? String }
        }
        #expect(try sources(["custom.zen", "-n", "3"]) == ["custom.zen"])
        #expect(try sources(["--source", "custom.zen", "-n", "3"]) == ["custom.zen"])
        #expect(try sources(["custom.zen", "-n", "300"]) == ["custom.zen"])
        #expect(try sources(["50%", "custom.zen", "50%", "custom.esc", "-n", "4"]).sorted() == ["custom.esc", "custom.zen"])
        #expect(try sources(["custom.zen", "custom.esc", "-n", "4", "--unseen"]).sorted() == ["custom.esc", "custom.zen"])
        // Both seen now: a new round, of custom.zen's quotes alone.
        #expect(try sources(["custom.zen", "-n", "3", "--unseen"]) == ["custom.zen"])
        // custom names every list, custom.zen one of them: each quote once.
        let lists = try sources(["custom", "custom.zen", "-n", "2000"])
        #expect(lists.count == 1_002 && lists.allSatisfy { $0.hasPrefix("custom.") }, "\(lists.count)")
        let none = try quotectl.run(["--db", store, "random", "0%", "custom.zen", "0%", "custom.esc"])
        #expect(none.status == 64 && none.stdout.isEmpty, "\(none.stdout)")
        #expect(none.stderr.contains("every share is 0%"), "\(none.stderr)")
    }

    @Test func shortAndLongFollowFortunesThreshold() throws {
        let short = try json(["random", "-n", "20", "-s"])
        #expect(!short.isEmpty)
        #expect(short.allSatisfy { ($0["text"] as? String)?.unicodeScalars.count ?? 999 <= 160 })
        let long = try quotectl.run(["--db", store, "random", "-l"])
        #expect(long.status == 66)
        #expect(long.stderr.contains("--long"), "\(long.stderr)")
        #expect(try json(["random", "-l", "--max-length", "20"]).allSatisfy { ($0["text"] as? String)?.unicodeScalars.count ?? 0 > 20 })
    }

    /// Each match once before any repeats, remembered per user outside the store.
    @Test func unseenShowsEachQuoteOnceBeforeRepeating() throws {
        let matching = try json(["random", "-n", "100", "--author", "Lao Tzu"]).count
        #expect(matching >= 2)
        var shown: [String] = []
        for _ in 0..<matching { shown += try json(["random", "--unseen", "--author", "Lao Tzu"]).compactMap { $0["id"] as? String } }
        #expect(Set(shown).count == matching, "\(shown)")
        #expect(try json(["random", "--unseen", "--author", "Lao Tzu"]).count == 1)  // a new round
        let state = try FileManager.default.contentsOfDirectory(atPath: scratch.file("state/quoted"))
        // The seen history of this store, and the quotes last shown (like and hide without an ID).
        #expect(state.sorted().count == 2 && state.sorted()[0].hasPrefix("seen-") && state.sorted()[1] == "shown", "\(state)")
    }

    /// fortune prints a record as written, so an export is never rewrapped: wrapping is the display's.
    @Test func exportedFortunesAreNeverRewrapped() throws {
        let long = String(repeating: "word ", count: 60).trimmingCharacters(in: .whitespaces)
        let file = scratch.write("long.json", #"[{"id": 1, "text": "\#(long)", "source": "A"}]"#)
        #expect(try quotectl.run(["--db", store, "import", file, "--name", "long"]).status == 0)
        let exported = try quotectl.run(["--db", store, "export", "--source", "custom.long", "--format", "fortune"]).stdout
        #expect(exported == long + "\n\t\t-- A\n%\n")
    }

    /// On a 100-column terminal, quotes wrap between words at 80 (that a pty is seen as one:
    /// PagerTests and the status tables at 60, 80 and 120 columns, under script(1)).
    @Test func quotesWrapAtTheReadingWidthOnATerminal() throws {
        let words = (1...40).map { "word\($0)" }.joined(separator: " ")
        let file = scratch.write("wrap.json", #"[{"id": 1, "text": "\#(words)", "source": "A"}]"#)
        #expect(try quotectl.run(["--db", store, "import", file, "--name", "wrap"]).status == 0)
        var terminal = quotectl
        terminal.terminalColumns = 100
        let result = try terminal.run(["--db", store, "--color", "never", "random", "--source", "custom.wrap"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let text = lines.filter { !$0.hasPrefix("    —") }
        #expect(text.count > 2, "\(result.stdout)")
        #expect(text.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(text.joined(separator: " ") == words)
        // Piped, the same quote is one line.
        #expect(try quotectl.run(["--db", store, "random", "--source", "custom.wrap"]).stdout.hasPrefix(words + "\n"))
        // A quote laid out by its writer is printed as written, at any width.
        let art = #"  /\\_/\\\n ( o.o )   "# + words + #"\n  > ^ <"#  // as JSON writes it
        let artFile = scratch.write("art.json", #"[{"id": 1, "text": "\#(art)", "source": "A"}]"#)
        #expect(try quotectl.run(["--db", store, "import", artFile, "--name", "art"]).status == 0)
        let shown = try terminal.run(["--db", store, "--color", "never", "random", "--source", "custom.art"])
        let artLines = shown.stdout.split(separator: "\n").map(String.init)
        #expect(artLines == ["  /\\_/\\", " ( o.o )   " + words, "  > ^ <", "    — A"], "\(shown.stdout)")
    }

    /// Markets with Korean names: the English column starts at the same display column.
    @Test func tablesAlignByDisplayWidth() throws {
        let database = try Database(path: store, mode: .readWrite)
        try database.execute("""
            INSERT INTO sources (name, kind, configured, created_at) VALUES ('upbit', 'upbit', 1, 0);
            INSERT INTO markets (market, quote_currency, base_currency, korean_name, english_name, warning, caution, first_seen, last_seen, content_hash)
            VALUES ('KRW-BTC', 'KRW', 'BTC', '비트코인', 'Bitcoin', 0, '[]', 0, 0, 1),
                   ('KRW-XRP', 'KRW', 'XRP', '리플', 'Ripple', 0, '[]', 0, 0, 2),
                   ('KRW-ETC', 'KRW', 'ETC', 'Ethereum Classic KR', 'Ethereum Classic', 0, '[]', 0, 0, 3);
            """)
        let lines = try quotectl.run(["--db", store, "markets"]).stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let columns = lines.map { line in DisplayWidth.of(String(line[..<line.range(of: line.contains("Bitcoin") ? "Bitcoin" : line.contains("Ripple") ? "Ripple" : "Ethereum Classic", options: .backwards)!.lowerBound])) }
        #expect(Set(columns).count == 1, "\(lines)")
        let status = try quotectl.run(["--db", store, "status"]).stdout
        #expect(status.contains("1 market,") || status.contains("3 markets"), "\(status)")
        #expect(!status.contains("1 quotes") && !status.contains("1 observations"))
    }
}
