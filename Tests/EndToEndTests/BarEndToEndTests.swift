import Foundation
import QuoteSystem
import QuoteSystemTasks
import Testing
import TestSupport

/// The real bars read the binary: i3blocks and tmux run quotectl as they would on a desktop, and
/// a hostile quote reaches them as text (what each form holds: BarOutputTests, in-process).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct BarEndToEndTests {
    let scratch = Scratch()
    var quotectl: BinaryRunner
    /// One quote that tries every bar's escapes, by an author with markup in the name.
    static let hostile = "Half #[fg=red]red, 100%{F#f00} <b>bold</b> & more\nsecond line \u{1B}[31mend"

    init() throws {
        quotectl = BinaryRunner("quotectl", home: scratch.path)
        let list = scratch.write("bar.json", try String(decoding: JSONSerialization.data(withJSONObject: [
            ["id": 1, "text": Self.hostile, "source": "A <N> & Other", "category": "bar"],
        ]), as: UTF8.self))
        quotectl.environment["QUOTED_DB"] = scratch.file("bar.db")
        let imported = try quotectl.run(["import", list, "--name", "bar"])
        #expect(imported.status == 0, "\(imported.stderr)")
    }

    /// The real i3blocks (as i3bar would run it): full_text is the quote on one line, short_text
    /// a shortened one, and nothing lands in the colour slot.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/i3blocks")))
    func i3blocksReadsFullAndShortText() throws {
        let config = scratch.write("i3blocks.conf", """
            [quote]
            command=QUOTED_DB=\(scratch.file("bar.db")) \(quotectl.path) random --source custom.bar --format i3blocks --max-width 60
            interval=once

            """)
        let bar = try BinaryRunner("i3blocks", home: scratch.path, path: "/usr/bin/i3blocks").run(["-c", config], timeout: 3, allowTimeout: true)
        // i3bar's protocol: a header line, "[", then one JSON array of blocks per line (",[…]").
        let blocks = bar.stdout.split(separator: "\n").flatMap { line -> [[String: Any]] in
            let array = line.drop { $0 == "," }
            return (try? JSONSerialization.jsonObject(with: Data(array.utf8))) as? [[String: Any]] ?? []
        }
        let block = try #require(blocks.first { $0["name"] as? String == "quote" }, "\(bar.stdout)")
        #expect(block["full_text"] as? String == "Half #[fg=red]red, 100%{F#f00} <b>bold</b> & more second…")
        #expect(block["short_text"] as? String == "Half #[fg=red]red, 100%{F#f00}…")
        #expect(block["color"] == nil)
    }

    /// `script` in a clean shell of its own session, through our own Subprocess: it gives the
    /// shell an empty signal mask and default actions (the test runner's threads block signals,
    /// and tmux and script need theirs).
    func shell(_ script: String) async throws -> Subprocess.Termination {
        let process = try Subprocess.spawn("/usr/bin/env", arguments: ["env", "-i", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TERM=xterm-256color",
                                                                       "HOME=\(scratch.path)", "setsid", "-w", "/bin/sh", "-c", script],
                                           defaultSignals: [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGWINCH]).process
        return await BlockingWork.perform { process.wait() }
    }

    /// The real tmux: `#(quotectl random --format tmux)` in status-right shows the quote as text,
    /// its `#[fg=red]` not taken for a style.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func tmuxShowsTheQuoteAsText() async throws {
        let command = "QUOTED_DB=\(scratch.file("bar.db")) \(quotectl.path) random --source custom.bar --format tmux --max-width 40 2>&1"
        let socket = "quoted-bar-\(getpid())"
        let setUp = try await shell("""
            tmux -L \(socket) -f /dev/null new-session -d -x 160 -y 5 'sleep 20' </dev/null >/dev/null 2>&1 &&
            tmux -L \(socket) set -g status-right-length 120 >/dev/null && tmux -L \(socket) set -g status-interval 1 >/dev/null &&
            tmux -L \(socket) set -g status-right '#(\(command))' >/dev/null
            """)
        #expect(setUp == .exited(0))
        // What the terminal shows: attached under script(1) — tmux runs the status command for an
        // attached client, then redraws — until the quote is in the typescript (looked for every
        // 0.1 s, for at most 10 s), then read.
        let typescript = scratch.file("tmux.typescript")
        _ = try await shell("script -qfc 'tmux -L \(socket) attach' \(typescript) </dev/null >/dev/null 2>&1 & "
                            + "for i in $(seq 100); do grep -qF 'Half #[fg=red]red' \(typescript) 2>/dev/null && break; sleep 0.1; done; "
                            + "kill $!; tmux -L \(socket) kill-server >/dev/null 2>&1")
        let shown = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: typescript))) ?? Data(), as: UTF8.self)
        #expect(shown.contains("Half #[fg=red]red, 100%{F#f00}…"), "\(shown.suffix(400))")
    }

    /// The README's tmux snippet as pasted, in a tmux of 80 columns (an inner tmux, whose status
    /// line is the last line of the outer one's pane): the session and the window list keep the
    /// left, and the quote on the right is one the snippet's command prints, from its first word
    /// (tmux cuts the start of a right side that leaves the window list no room).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
    func theREADMEsTmuxSnippetKeepsTheWindowListAt80Columns() async throws {
        let readme = try String(contentsOf: Fixtures.folder.deletingLastPathComponent().deletingLastPathComponent()
                                    .appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```sh\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        let snippet = try #require(blocks.first { $0.hasPrefix("# tmux (~/.tmux.conf)") }, "the README's tmux snippet")
        let statusRight = "set -g status-right '#("
        let line = try #require(snippet.split(separator: "\n").first { $0.hasPrefix(statusRight) && $0.hasSuffix(")'") }, "\(snippet)")
        let words = line.dropFirst(statusRight.count).dropLast(2).split(separator: " ").map(String.init)
        #expect(words.first == "quotectl", "\(line)")
        // Every line the snippet's command can print, as tmux shows it (## is one #).
        let printed = try quotectl.run(Array(words.dropFirst()) + ["-n", "100000"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let quotes = printed.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: "##", with: "#") }
        let config = scratch.write("tmux.conf", snippet + "\n")
        let outer = "quoted-outer-\(getpid())", inner = "quoted-inner-\(getpid())"
        let capture = scratch.file("status")
        let setUp = try await shell("""
            export PATH=\(BinaryRunner.productsFolder.path):/usr/bin:/bin QUOTED_DB=\(scratch.file("bar.db")) &&
            tmux -L \(outer) -f /dev/null new-session -d -x 80 -y 6 'tmux -L \(inner) -f \(config) new-session' </dev/null >/dev/null 2>&1
            """)
        #expect(setUp == .exited(0))
        // Looked at every 0.1 s until the quote is drawn (the status command runs once attached), for at most 10 s.
        var status = ""
        for _ in 0..<100 {
            _ = try? await shell("tmux -L \(outer) capture-pane -p > \(capture) 2>/dev/null")
            let pane = (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
            status = pane.split(separator: "\n").last.map { String($0) } ?? ""
            while status.hasSuffix(" ") { status.removeLast() }
            if status.hasPrefix("[0] 0:"), quotes.contains(where: { status.hasSuffix(" " + $0) }) { break }
            try? await Task.sleep(for: .milliseconds(100))
        }
        _ = try? await shell("tmux -L \(inner) kill-server >/dev/null 2>&1; tmux -L \(outer) kill-server >/dev/null 2>&1")
        let shown = status
        #expect(shown.hasPrefix("[0] 0:"), "the window list is gone: \(shown)")
        #expect(quotes.contains { shown.hasSuffix(" " + $0) }, "the quote is cut at its start: \(shown)")
    }
}

