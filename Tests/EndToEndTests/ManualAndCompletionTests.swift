import Foundation
import Testing
import TestSupport

/// The manual pages and shell completions, generated from the command-line specs: lint-clean
/// roff, and completions a shell really uses (quotectl's page and typos, in-process: QuotectlManualTests).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct ManualAndCompletionTests {
    let scratch = Scratch()
    let quotectl: BinaryRunner
    let quoted: BinaryRunner

    init() {
        quotectl = BinaryRunner("quotectl", home: scratch.path)
        quoted = BinaryRunner("quoted", home: scratch.path)
    }

    static func tool(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = BinaryRunner.productsFolder.path + ":/usr/bin:/bin"
        environment["HOME"] = scratch.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: [("quoted", "quoted.8"), ("conf", "quoted.conf.5")])
    func manualPagesAreLintClean(kind: String, file: String) throws {
        let page = try quoted.run(["manual", kind])
        #expect(page.status == 0)
        #expect(page.stdout.hasPrefix(".TH "))
        let path = scratch.write(file, page.stdout)
        guard Self.tool("/usr/bin/mandoc") else {
            Issue.record("mandoc is missing: scripts/debian-packages.sh installs it")
            return
        }
        let lint = try run("/usr/bin/mandoc", ["-Tlint", "-Wstyle", path])
        #expect(lint.status == 0, "\(lint.output)")
        #expect(lint.output.isEmpty, "\(lint.output)")
    }

    @Test func theConfigurationManualListsEveryKeyWithItsRange() throws {
        // Source lines are filled: read the page as running text.
        let page = try quoted.run(["manual", "conf"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for key in ["interval", "max_bytes", "timeout", "pause", "known_streak", "request_budget", "allow_shrink", "api_key_file", "socket"] {
            #expect(page.contains(".B \(key)"), "\(key) missing")
        }
        #expect(page.contains("1K to 16G"))
        #expect(page.contains("1m to 30d"))
    }

    /// bash drives the generated completion as it would at a prompt (COMP_WORDS, COMP_CWORD).
    @Test func bashCompletesSubcommandsOptionsValuesSourcesAndFiles() throws {
        let script = scratch.write("quotectl.bash", try quotectl.run(["completion", "bash"]).stdout)
        _ = scratch.write("list.json", "[]")
        #expect(try quotectl.run(["--db", scratch.file("q.db"), "import", scratch.file("list.json"), "--name", "mine"]).status == 65)
        let driver = """
            source \(script)
            complete -p quotectl
            try() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _quotectl; echo "${COMPREPLY[*]}"; }
            try quotectl ra
            try quotectl random --so
            try quotectl random --lang ""
            try quotectl markets --quote ""
            try quotectl random --source ""
            try quotectl import \(scratch.path)/li
            try quotectl --db /tmp/x.db expo
            """
        let result = try run("/bin/bash", ["-c", driver])
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(result.status == 0, "\(result.output)")
        #expect(lines.first == "complete -F _quotectl quotectl", "\(result.output)")
        #expect(lines.dropFirst().prefix(7) == ["random", "--source", "ko en", "KRW BTC USDT",
                                                   "builtin happiness breakingbad upbit weather custom",
                                                   scratch.file("list.json"), "export"], "\(result.output)")
    }

    /// bash's own rules: a file name with a space is one word, a positional already given is
    /// not offered again, forget offers only lists, the filters offer the store's values, and
    /// quoted offers its configured sources.
    @Test func bashCompletionFollowsBashsRules() throws {
        let folder = scratch.path + "/in here"
        try FileManager.default.createDirectory(atPath: folder + "/sub dir", withIntermediateDirectories: true)
        _ = scratch.write("in here/my quotes.json", #"[{"id": 1, "text": "x", "source": "Y", "category": "wise words"}]"#)
        let db = scratch.file("q.db")
        #expect(try quotectl.run(["--db", db, "import", folder + "/my quotes.json", "--name", "mine"]).status == 0)
        let bb = scratch.write("bb.json", #"[{"source": "breakingbad", "id": "1", "text": "Say my name.", "author": "Walter White", "production": "Breaking Bad"}]"#)
        #expect(try quotectl.run(["--db", db, "import", bb, "--name", "bb"]).status == 0)
        let quotectlScript = scratch.write("quotectl.bash", try quotectl.run(["completion", "bash"]).stdout)
        let quotedScript = scratch.write("quoted.bash", try quoted.run(["completion", "bash"]).stdout)
        let driver = """
            source \(quotectlScript); source \(quotedScript)
            export QUOTED_DB=\(db)
            try() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _${1}; printf '[%s]' "${COMPREPLY[@]}"; echo; }
            try quotectl import "\(folder)/my"
            try quotectl import "\(folder)/su"
            try quotectl config ""
            try quotectl config check ""
            try quotectl forget ""
            try quotectl random --production ""
            try quotectl random --category wi
            try quoted sync --source ""
            try quotectl completion ""
            """
        let result = try run("/bin/bash", ["-c", driver])
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(result.status == 0, "\(result.output)")
        // (--character offers Breaking Bad's speakers: VocabularyTests, with a synced source.)
        #expect(lines == ["[\(folder)/my quotes.json]", "[\(folder)/sub dir]", "[check]", "[]", "[bb][mine]",
                          "[Breaking Bad]", "[wisdom][wise words]",
                          "[happiness][breakingbad][upbit][weather]", "[bash][zsh][fish]"], "\(result.output)")
    }

    /// Every shipped shell file passes shellcheck: the completions and the login snippets.
    @Test(.enabled(if: tool("/usr/bin/shellcheck")))
    func shippedShellFilesAreShellcheckClean() throws {
        let bash = scratch.write("quotectl.bash", try quotectl.run(["completion", "bash"]).stdout)
        let quotedBash = scratch.write("quoted.bash", try quoted.run(["completion", "bash"]).stdout)
        let contrib = BinaryRunner.productsFolder.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("contrib").path
        let check = try run("/usr/bin/shellcheck", [bash, quotedBash, contrib + "/profile.d-quoted.sh", contrib + "/update-motd.d-50-quoted"])
        #expect(check.status == 0, "\(check.output)")
    }

    /// fish offers config's one action until it is given.
    @Test(.enabled(if: tool("/usr/bin/fish")))
    func fishOffersAGivenPositionalOnlyOnce() throws {
        let script = scratch.write("quotectl.fish", try quotectl.run(["completion", "fish"]).stdout)
        let first = try run("/usr/bin/fish", ["--no-config", "-c", "source \(script); complete -C 'quotectl config '"])
        #expect(first.output.hasPrefix("check"), "\(first.output)")
        let again = try run("/usr/bin/fish", ["--no-config", "-c", "source \(script); complete -C 'quotectl config check '"])
        #expect(!again.output.contains("check"), "\(again.output)")
    }

    @Test(arguments: ["quotectl", "quoted"])
    func zshAndFishCompletionsParse(program: String) throws {
        let runner = program == "quotectl" ? quotectl : quoted
        for (shell, flag, kind) in [("/usr/bin/zsh", "-n", "zsh"), ("/usr/bin/fish", "-n", "fish")] {
            guard Self.tool(shell) else {
                Issue.record("\(shell) is missing: scripts/debian-packages.sh installs it")
                continue
            }
            let script = scratch.write("\(program).\(kind)", try runner.run(["completion", kind]).stdout)
            let check = try run(shell, [flag, script])
            #expect(check.status == 0, "\(kind): \(check.output)")
        }
    }

    @Test func typosGetADidYouMean() throws {
        #expect(try quoted.run(["-V"]).stdout == "quoted 0.1.0\n")
        let daemon = try quoted.run(["snyc"])
        #expect(daemon.stderr.contains("did you mean 'sync'?"), "\(daemon.stderr)")
    }
}
