import Foundation
import Testing
import TestSupport

/// The message catalogs as CI holds them: po/quoted.pot is what the sources give and no
/// user-visible English bypasses it (scripts/po/extract.py --check, shown able to fail), and
/// po/ko.po is complete, with Korean's plural rule and every translation keeping its
/// message's placeholders (msgfmt --check).
@Suite(.timeLimit(.minutes(5))) struct CatalogTests {
    struct Run {
        let status: Int32
        let output: String
    }

    /// Runs `tool` from the checkout's root, standard output and error together.
    static func run(_ tool: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = SourceTree.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    static let extractor = SourceTree.root.appendingPathComponent("scripts/po/extract.py").path
    static let literals = SourceTree.root.appendingPathComponent("scripts/po/literals.py").path
    static let catalog = SourceTree.root.appendingPathComponent("po/ko.po").path

    static func msgfmt(_ arguments: [String]) throws -> Run? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt") else {
            Issue.record("msgfmt is missing: scripts/debian-packages.sh installs gettext")
            return nil
        }
        return try run("/usr/bin/msgfmt", arguments)
    }

    @Test func thePotIsCurrentAndNoEnglishBypassesTheCatalog() throws {
        let check = try Self.run("/usr/bin/python3", [Self.extractor, "--check"])
        #expect(check.status == 0, "\(check.output.suffix(3000))")
    }

    /// A copy of what the extractor reads: Sources, scripts/po and po.
    func copyOfTheCheckout() throws -> TemporaryFolder {
        let copy = TemporaryFolder("quoted-catalog-check")
        try FileManager.default.createDirectory(atPath: copy.file("scripts"), withIntermediateDirectories: true)
        for folder in ["Sources", "scripts/po", "po"] {
            try FileManager.default.copyItem(atPath: SourceTree.root.appendingPathComponent(folder).path, toPath: copy.file(folder))
        }
        return copy
    }

    @Test func thePlantedUntranslatedErrorIsNamedWithItsLine() throws {
        let copy = try copyOfTheCheckout()
        let file = copy.file("Sources/quotectl/main.swift")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count + (text.hasSuffix("\n") ? 0 : 1)
        try (text + (text.hasSuffix("\n") ? "" : "\n") + "func planted() { Output.error(\"this is not translated\") }\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let check = try Self.run("/usr/bin/python3", [Self.extractor, "--check", "--root", copy.path])
        #expect(check.status == 1)
        #expect(check.output.contains("Sources/quotectl/main.swift:\(line): this is not translated"), "\(check.output.suffix(2000))")
    }

    @Test func aStalePotIsCaught() throws {
        let copy = try copyOfTheCheckout()
        let write = try Self.run("/usr/bin/python3", [Self.extractor, "--root", copy.path])
        #expect(write.status == 0, "\(write.output)")
        let stale = "po/quoted.pot is not what the sources give"
        let current = try Self.run("/usr/bin/python3", [Self.extractor, "--check", "--root", copy.path])
        #expect(!current.output.contains(stale), "\(current.output.prefix(500))")
        let pot = copy.file("po/quoted.pot")
        let handle = try #require(FileHandle(forWritingAtPath: pot))
        handle.seekToEndOfFile()
        handle.write(Data("\nmsgid \"a message no source has\"\nmsgstr \"\"\n".utf8))
        handle.closeFile()
        let check = try Self.run("/usr/bin/python3", [Self.extractor, "--check", "--root", copy.path])
        #expect(check.status == 1)
        #expect(check.output.contains(stale), "\(check.output.prefix(500))")
    }

    @Test func theKoreanCatalogIsComplete() throws {
        guard let statistics = try Self.msgfmt(["--check", "--statistics", "-o", "/dev/null", Self.catalog]) else { return }
        #expect(statistics.status == 0, "\(statistics.output)")
        // "N translated messages." alone; msgfmt adds ", N fuzzy translations" and
        // ", N untranslated messages" only when there are some.
        #expect(statistics.output.contains("translated message"), "\(statistics.output)")
        #expect(!statistics.output.contains("untranslated"), "\(statistics.output)")
        #expect(!statistics.output.contains("fuzzy"), "\(statistics.output)")
    }

    @Test func koreanHasOnePluralForm() throws {
        let text = try String(contentsOfFile: Self.catalog, encoding: .utf8)
        #expect(text.contains("\"Plural-Forms: nplurals=1; plural=0;\\n\""))
    }

    @Test func everyTranslationKeepsItsPlaceholders() throws {
        guard let check = try Self.msgfmt(["--check", "-o", "/dev/null", Self.catalog]) else { return }
        #expect(check.status == 0, "\(check.output)")
    }

    /// What a program matches is in every translation as the English writes it: options, keys and
    /// [sections], CSV columns and JSON members, {fields}, format and source names, commands,
    /// environment variables, paths: a manual that calls the column 본문 sends its reader to a
    /// refused file (issue 38).
    @Test func everyTranslationKeepsTheNamesAProgramMatches() throws {
        let check = try Self.run("/usr/bin/python3", [Self.literals])
        #expect(check.status == 0, "\(check.output.suffix(3000))")
    }

    /// The check above can fail: the Korean import help as it was, and an option translated.
    @Test func aTranslatedNameIsNamedWithItsLine() throws {
        let scratch = TemporaryFolder()
        let broken = scratch.write("broken.po", """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"

            msgid "csv (a header row naming the text or quote, author, id and category columns)"
            msgstr "csv(본문이나 명언, 저자, id, 분류 열의 이름이 적힌 머리 행)"

            #, c-format
            msgid "%1$s applies only to --format %2$s"
            msgstr "%1$s 옵션은 --형식 %2$s에만 적용됨"

            """)
        let check = try Self.run("/usr/bin/python3", [Self.literals, broken])
        #expect(check.status == 1)
        for name in ["text", "quote", "author", "category"] {
            #expect(check.output.contains("broken.po:5: '\(name)' is not in the translation"), "\(check.output)")
        }
        #expect(!check.output.contains("'id'"), "\(check.output)")
        #expect(check.output.contains("broken.po:9: '--format' is not in the translation"), "\(check.output)")
    }

    /// The check above can fail: a translation that drops a value of its c-format message.
    @Test func msgfmtRefusesALostPlaceholder() throws {
        let scratch = TemporaryFolder()
        let broken = scratch.write("broken.po", """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"
            "Plural-Forms: nplurals=1; plural=0;\\n"

            #, c-format
            msgid "cannot read %1$s: %2$s"
            msgstr "%1$s 읽을 수 없음"

            """)
        guard let check = try Self.msgfmt(["--check", "-o", "/dev/null", broken]) else { return }
        #expect(check.status != 0)
        #expect(check.output.contains("broken.po"), "\(check.output)")
    }
}
