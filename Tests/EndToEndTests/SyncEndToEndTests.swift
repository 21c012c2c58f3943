import Foundation
import Testing
import TestSupport

/// `quoted sync --once` against a local imitation of all five upstreams, then
/// quotectl reading what it stored: the binaries as a user runs them.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct SyncEndToEndTests {
    let scratch = Scratch()
    let server: TestUpstream
    var quoted: BinaryRunner
    var quotectl: BinaryRunner

    init() throws {
        let upbit = Fixtures.text("upbit/market_all_is_details.json")
        let character = Fixtures.text("breakingbad/samplecharacter.json")
        let death = Fixtures.text("breakingbad/sampledeath.json")
        let quote = Fixtures.text("breakingbad/samplequote.json")
        server = try TestUpstream { request in
            switch request.path {
            case "/gist/quotes.json":
                return .json(#"[{"id": 1, "category": "code", "text": "Talk is cheap. Show me the code.", "source": "Linus Torvalds"}]"#,
                             headers: [("ETag", "\"gist-1\"")])
            case "/happiness/random-quote":
                return .json(#"{"message": "Quote fetched successfully", "statusCode": 200, "data": {"id": 60, "content": "행복은 내면에서 오지 않고 사이에서 온다. Happiness comes from between.", "author": "Jonathan Haidt, 사회심리학자", "description": null, "link": null}}"#)
            case "/api/quotes/random": return .json(quote)
            case "/api/deaths": return .json("[" + death + "]")
            case "/api/characters":
                return request.query["name"] == "Walter White" ? .json("[" + character + "]") : .json("[]")
            case "/v1/market/all": return .json(upbit, headers: [("Remaining-Req", "group=market; min=600; sec=9")])
            case "/data/2.5/weather": return .json(#"{"cod": 401, "message": "Invalid API key."}"#, status: 401)
            default: return .status(404)
            }
        }
        quoted = BinaryRunner("quoted", home: scratch.path)
        quotectl = BinaryRunner("quotectl", home: scratch.path)
    }

    func writeConfig(weather: Bool = false) -> String {
        let base = server.baseURL
        return scratch.write("quoted.conf", """
            [store]
            path = \(scratch.file("quotes.db"))

            [source.custom.dev]
            url = \(base)/gist/quotes.json

            [source.happiness]
            url = \(base)/happiness/random-quote

            [source.breakingbad]
            url = \(base)/api
            productions = Breaking Bad
            known_streak = 3
            pause = 0

            [source.upbit]
            url = \(base)/v1/market/all?is_details=true

            [source.weather]
            enabled = \(weather)
            url = \(base)/data/2.5/weather
            api_key = TOPSECRET
            """)
    }

    @Test func syncOnceFillsTheStoreAndQuotectlReadsIt() throws {
        let config = writeConfig()
        let sync = try quoted.run(["sync", "--once", "--config", config, "--json"])
        #expect(sync.status == 0, "\(sync.stderr)")
        for source in ["custom.dev", "happiness", "breakingbad", "upbit"] {
            #expect(sync.stderr.contains("\(source): "), "\(sync.stderr)")
        }
        #expect(sync.stderr.contains("upbit: 536 markets, 536 changed"))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)) as? [String: Any])
        #expect(summary["ok"] as? Bool == true)
        #expect((summary["sources"] as? [[String: Any]])?.count == 4)

        var reader = quotectl
        reader.environment["QUOTED_DB"] = scratch.file("quotes.db")
        let happy = try reader.run(["random", "--source", "happiness"])
        #expect(happy.status == 0)
        #expect(happy.stdout.contains("행복은 내면에서"))
        #expect(try reader.run(["today", "--source", "happiness"]).stdout == happy.stdout)
        let walter = try reader.run(["characters", "Walter White"])
        #expect(walter.status == 0)
        #expect(walter.stdout.contains("Walter White (Walter Hartwell White Sr.)"))
        #expect(walter.stdout.contains("death: M60 Machine Gun & Cancer"))
        let markets = try reader.run(["markets", "--quote", "KRW"])
        #expect(markets.status == 0)
        #expect(markets.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("KRW-") })
        let status = try reader.run(["status"])
        #expect(status.stdout.contains("custom.dev"))
        #expect(!status.stdout.contains("never\n") || status.stdout.contains("weather"))
        let bb = try reader.run(["random", "--character", "walter white", "--json"])
        #expect(bb.stdout.contains("Negra Arroyo Lane"))

        // Unchanged: the second run writes no quote row.
        let again = try quoted.run(["sync", "--once", "--config", config, "--source", "custom.dev", "--source", "upbit"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("custom.dev: not modified"), "\(again.stderr)")
    }

    @Test func aFailingSourceExits75AndARejectedKeyExits78WithoutTheKey() throws {
        let config = writeConfig(weather: true)
        let result = try quoted.run(["sync", "--once", "--config", config, "--source", "weather"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("weather: API key rejected (HTTP 401)"))
        #expect(!result.stderr.contains("TOPSECRET"))
        server.answer { _ in .status(503, headers: [("Retry-After", "7")]) }
        let failing = try quoted.run(["sync", "--once", "--config", config, "--source", "happiness"])
        #expect(failing.status == 75)
        #expect(failing.stderr.contains("happiness: HTTP 503, retry after 7 s"), "\(failing.stderr)")
        var reader = quotectl
        reader.environment["QUOTED_DB"] = scratch.file("quotes.db")
        let status = try reader.run(["status", "--json"])
        #expect(status.stdout.contains(#""last_error":"HTTP 503, retry after 7 s""#))
        #expect(!status.stdout.contains("TOPSECRET"))
    }

    @Test func configurationErrorsExit78NamingTheLine() throws {
        let config = scratch.write("bad.conf", "[source.upbit]\nintervall = 1h\n")
        let result = try quoted.run(["sync", "--once", "--config", config])
        #expect(result.status == 78)
        #expect(result.stderr.contains("bad.conf:2: unknown key 'intervall'"))
        let check = try quotectl.run(["config", "check", "--config", config])
        #expect(check.status == 78)
        #expect(check.stderr.contains("bad.conf:2:"))
        #expect(try quotectl.run(["config", "check", "--config", writeConfig()]).status == 0)
        #expect(try quoted.run(["sync"]).status == 64)
    }

    /// `config check` names every mistake of the file, a line each in line order, as a compiler
    /// does (it used to name line 4, then 2, then 3, one a run); quoted refuses the file as before.
    @Test func configCheckNamesEveryMistakeInLineOrder() throws {
        let config = scratch.write("bad.conf", "[source.custom.x]\ninterval = forever\ntimeout = x\nbogus = 1\nurl = https://example.org/x.json\n")
        let check = try quotectl.run(["config", "check", "--config", config])
        #expect(check.status == 78)
        let lines = check.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(check.stderr)")
        for (line, number) in zip(lines, [2, 3, 4]) { #expect(line.hasPrefix("quotectl: \(config):\(number): "), "\(line)") }
        #expect(lines.last?.contains("unknown key 'bogus' in [source.custom.x]") == true, "\(check.stderr)")
        let sync = try quoted.run(["sync", "--once", "--config", config])
        #expect(sync.status == 78)
        #expect(sync.stderr.contains("bad.conf:2: interval = 'forever' in [source.custom.x]"), "\(sync.stderr)")
        // Another command names the first and says how many more config check would name.
        let status = try quotectl.run(["status", "--config", config])
        #expect(status.status == 78)
        #expect(status.stderr == lines[0] + "\n"
                + "quotectl: and 2 more problems in the file: 'quotectl config check' names every one\n", "\(status.stderr)")
    }

    @Test func aListRemovedFromTheConfigKeepsItsQuotesUntilForgotten() throws {
        let config = writeConfig()
        #expect(try quoted.run(["sync", "--once", "--config", config, "--source", "custom.dev"]).status == 0)
        let without = scratch.write("quoted.conf", "[store]\npath = \(scratch.file("quotes.db"))\n[source.happiness]\nurl = \(server.baseURL)/happiness/random-quote\n[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n")
        #expect(try quoted.run(["sync", "--once", "--config", without]).status == 0)
        var reader = quotectl
        reader.environment["QUOTED_DB"] = scratch.file("quotes.db")
        #expect(try reader.run(["random", "--source", "custom.dev"]).status == 0)
        #expect(try reader.run(["status"]).stdout.contains("no longer in the config"))
        let forget = try reader.run(["forget", "dev"])
        #expect(forget.stdout == "custom.dev: forgot 1 quote\n")
        #expect(try reader.run(["random", "--source", "custom.dev"]).status == 66)
    }

    /// What `command` shows on a terminal `columns` wide (script(1) gives it a pty of that size).
    func onATerminal(_ command: [String], columns: Int) throws -> [String] {
        var script = BinaryRunner("script", home: scratch.path, path: "/usr/bin/script")
        script.environment["QUOTED_CONFIG"] = writeConfig()
        let line = ([quotectl.path, "--no-pager", "--color", "never"] + command).map { "'\($0)'" }.joined(separator: " ")
        let result = try script.run(["-qc", "stty cols \(columns) rows 200; \(line)", "/dev/null"])
        return result.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// status and markets at 60, 80 and 120 columns: the whole width used, no line wider than the
    /// terminal, no cell a person needs cut, a row never broken (a wrapped cell goes on below).
    @Test(arguments: [60, 80, 120])
    func tablesFitAnyWidth(columns: Int) throws {
        #expect(try quoted.run(["sync", "--once", "--config", writeConfig()]).status == 0)
        let status = try onATerminal(["status"], columns: columns)
        // (The store's path is one word, shown whole: it is the one line that may be wider.)
        #expect(status.filter { !$0.hasPrefix("Store: ") }.allSatisfy { $0.count <= columns }, "\(status.joined(separator: "\n"))")
        #expect(status.contains { $0.hasPrefix("SOURCE") && $0.contains("NEXT DUE") })
        #expect(status.contains { $0.hasPrefix("breakingbad") }, "\(status.joined(separator: "\n"))")
        let holds = status.joined(separator: " ")
        #expect(holds.contains("536 markets") && !holds.contains("…"), "\(status.joined(separator: "\n"))")
        let markets = try onATerminal(["markets", "--warning"], columns: columns)
        #expect(markets.allSatisfy { $0.count <= columns * 2 }, "\(markets.joined(separator: "\n"))")  // Hangul: 2 columns each
        #expect(markets.first?.hasPrefix("MARKET") == true, "\(markets.joined(separator: "\n"))")
        #expect(!markets.joined().contains("…"), "a cell was cut: \(markets.joined(separator: "\n"))")
        // At 120 columns the names are there; at 60 the English names have gone to make room.
        #expect(markets[0].contains("ENGLISH") == (columns >= 80), "\(markets[0])")
        // Every flag whole: the words of each caution are on the table, in order.
        #expect(markets.joined(separator: " ").contains("caution:"), "\(markets.joined(separator: "\n"))")
    }
}

/// The body's SHA-256 decides "the same body as last time": when libcrypto cannot compute it (an
/// OpenSSL configuration that leaves no provider of SHA-256), the body is applied again — never
/// taken for unchanged — and no digest is kept.
@Suite(.offThePool, .timeLimit(.minutes(10))) struct BodyDigestEndToEndTests {
    @Test func withoutAWorkingSHA256TheSameBodyIsReadAgainNotSkipped() throws {
        let scratch = Scratch()
        let body = #"[{"id": 1, "text": "first"}, {"id": 2, "text": "second"}]"#
        // No ETag, no Last-Modified: only the digest can tell the body is the same.
        let server = try TestUpstream { _ in .json(body) }
        let config = scratch.write("q.conf", BinaryRunner.oneListConfig(store: scratch.file("q.db"), list: "custom.list",
                                                                         url: "\(server.baseURL)/list.json"))
        let noSHA256 = scratch.write("null-provider.cnf", """
            openssl_conf = openssl_init
            [openssl_init]
            providers = provider_sect
            [provider_sect]
            null = null_sect
            [null_sect]
            activate = 1
            """)
        var broken = BinaryRunner("quoted", home: scratch.path)
        broken.environment["OPENSSL_CONF"] = noSHA256
        for _ in 1...2 {
            let result = try broken.run(["sync", "--once", "--config", config])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("custom.list: 2 quotes"), "\(result.stderr)")
        }
        // With SHA-256 working, the digest is kept and the same body is "not modified".
        let working = BinaryRunner("quoted", home: scratch.path)
        #expect(try working.run(["sync", "--once", "--config", config]).stderr.hasPrefix("custom.list: 2 quotes"))
        #expect(try working.run(["sync", "--once", "--config", config]).stderr.hasPrefix("custom.list: not modified"))
    }
}
