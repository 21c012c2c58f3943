import Foundation
import Testing
import TestSupport

/// `--notify` without a desktop: the failures that must be one line and exit 69 at once (no
/// bus, no notify-send), the deadline on a notify-send that never returns, and the exact
/// command line a notify-send receives (a stand-in recording its arguments). The real
/// notification server is scripts/e2e/desktop.sh's (dunst under Xvfb).
@Suite(.offThePool, .timeLimit(.minutes(5))) struct NotifyEndToEndTests {
    let scratch = Scratch()
    var store: String { scratch.file("quotes.db") }
    var fakeFolder: String { scratch.file("bin") }
    var recorded: String { scratch.file("argv") }

    /// A store with one quote holding what markup would eat, and a stand-in notify-send.
    func prepare(notifySend script: String = #"printf '%s\0' "$@" > "$ARGV_OUT""#) throws {
        let list = scratch.write("l.json", #"[{"id": 1, "text": "Use <b>bold</b> & fish &amp; chips > none", "author": "Tom & Jerry"}]"#)
        let imported = try quotectl().run(["--db", store, "import", list, "--name", "l"])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Written by a child (sh), never by this process: a file held open here for writing
        // could be inherited by another test's spawn and make its exec fail (ETXTBSY).
        let sh = BinaryRunner("sh", home: scratch.path, path: "/bin/sh")
        let made = try sh.run(["-c", #"mkdir -p "$1" && cat > "$1/notify-send" && chmod +x "$1/notify-send""#, "sh", fakeFolder],
                              stdin: "#!/bin/sh\n" + script + "\n")
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// quotectl with a session bus address (nothing listens there: only the stand-in is run).
    func quotectl(bus: Bool = true) -> InProcessQuotectl {
        var runner = InProcessQuotectl(home: scratch.path)
        if bus { runner.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + scratch.file("no-bus") }
        runner.environment["ARGV_OUT"] = recorded
        runner.environment["PATH"] = fakeFolder + ":/usr/bin:/bin"
        return runner
    }

    @Test func withoutASessionBusItFailsAtOnceNamingTheVariable() throws {
        try prepare()
        for command in [["today"], ["random"]] {
            let run = try quotectl(bus: false).run(["--db", store] + command + ["--notify"])
            #expect(run.status == 69)
            #expect(run.stderr.contains("DBUS_SESSION_BUS_ADDRESS") && run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: recorded))
        }
        // $XDG_RUNTIME_DIR/bus that is not a socket is no bus either.
        var runner = quotectl(bus: false)
        runner.environment["XDG_RUNTIME_DIR"] = scratch.path
        _ = scratch.write("bus", "not a socket")
        let run = try runner.run(["--db", store, "today", "--notify"])
        #expect(run.status == 69 && run.stderr.contains("DBUS_SESSION_BUS_ADDRESS"), "\(run.stderr)")
    }

    @Test func withoutNotifySendItSaysWhichPackageHasIt() throws {
        try prepare()
        var runner = quotectl()
        runner.environment["PATH"] = scratch.file("empty") + ":relative/bin"
        let run = try runner.run(["--db", store, "today", "--notify"])
        #expect(run.status == 69)
        #expect(run.stderr == "quotectl: notify-send not found in PATH: apt install libnotify-bin\n", "\(run.stderr)")
    }

    @Test func notifySendGetsTheEscapedBodyTheAuthorTheAppNameAndTheLanguage() throws {
        try prepare()
        let run = try quotectl().run(["--db", store, "random", "--notify", "--source", "custom.l"])
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stdout) \(run.stderr)")
        let argv = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\0", omittingEmptySubsequences: false).dropLast()
        #expect(Array(argv) == ["--app-name=quoted", "--urgency=low", "--hint=string:x-quoted-lang:en", "--", "Tom & Jerry",
                                "Use &lt;b&gt;bold&lt;/b&gt; &amp; fish &amp;amp; chips &gt; none"])
        let today = try quotectl().run(["--db", store, "today", "--notify"])
        #expect(today.status == 0, "\(today.stderr)")
    }

    @Test func aNotifySendThatFailsOrNeverReturnsIsExit69() throws {
        try prepare(notifySend: #"echo "GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: no server" >&2; exit 1"#)
        let failed = try quotectl().run(["--db", store, "today", "--notify"])
        #expect(failed.status == 69)
        #expect(failed.stderr.hasSuffix("notify-send exited with status 1: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: no server\n"),
                "\(failed.stderr)")
        // One that waits for ever (a bus whose notification server never answers): stopped at the deadline.
        _ = try BinaryRunner("sh", home: scratch.path, path: "/bin/sh")
            .run(["-c", #"printf '#!/bin/sh\nexec sleep 120\n' > "$1/notify-send""#, "sh", fakeFolder])
        let hung = try quotectl().run(["--db", store, "today", "--notify"])
        #expect(hung.status == 69)
        #expect(hung.stderr.contains("no notification server answered") && hung.stderr.contains("within 5 s"), "\(hung.stderr)")
    }

    /// `--unseen` counts a quote as seen once a notification showed it: one no server showed stays unseen.
    @Test func aQuoteNoNotificationShowedStaysUnseen() throws {
        try prepare(notifySend: "exit 1")
        let stateFolder = scratch.file(".local/state/quoted")
        func seenFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: stateFolder)) ?? []).filter { $0.hasPrefix("seen-") }
        }
        let failed = try quotectl().run(["--db", store, "random", "--unseen", "--notify"])
        #expect(failed.status == 69, "\(failed.stderr)")
        #expect(seenFiles().isEmpty, "a quote no notification showed was kept as seen")
        try prepare()
        let shown = try quotectl().run(["--db", store, "random", "--unseen", "--notify"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(seenFiles().count == 1, "the shown quote is kept as seen, under \(stateFolder)")
    }

    @Test func notifyTakesNoOutputLayoutNorCount() throws {
        try prepare()
        for extra in [["--json"], ["--oneline"], ["--format", "waybar"], ["--format", "{text}"]] {
            let run = try quotectl().run(["--db", store, "today", "--notify"] + extra)
            #expect(run.status == 64 && run.stderr.contains("--notify"), "\(extra) \(run.stderr)")
        }
        let counted = try quotectl().run(["--db", store, "random", "--notify", "-n", "3"])
        #expect(counted.status == 64 && counted.stderr.contains("--count"), "\(counted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: recorded))
    }
}
