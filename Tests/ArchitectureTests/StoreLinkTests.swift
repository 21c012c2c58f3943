import Foundation
import TestSupport
import Testing

/// A module that links SQLite is one that runs SQL: the values every module shares live in
/// QuoteModels and the text tools in QuoteText, so importing QuoteStore for a source name or
/// for JSON is a mistake this suite names.
@Suite(.computing) struct StoreLinkTests {
    /// QuoteStore's public top-level names, read off its sources.
    static func storeNames() throws -> Set<String> {
        var names = Set<String>()
        let declaration = try NSRegularExpression(pattern: #"^public (?:final )?(?:class|struct|enum|protocol|actor|typealias) (\w+)"#,
                                                  options: [.anchorsMatchLines])
        for file in SourceTree.swiftFiles() where file.hasPrefix("QuoteStore/") {
            let text = try SourceTree.text(file)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert((text as NSString).substring(with: match.range(at: 1)))
            }
        }
        return names
    }

    /// The store's door: what its values offer by name (`store.quotes`, `connection.syncState`,
    /// `store.write`), read off the files that declare them, each as `.name`.
    static func doorNames() throws -> Set<String> {
        var names = Set<String>()
        let member = try NSRegularExpression(pattern: #"^\s+public (?:static )?(?:var|func) (\w+)"#, options: [.anchorsMatchLines])
        for file in ["QuoteStore/StoreOperations.swift", "QuoteStore/SourceTransaction.swift"] {
            let text = try SourceTree.text(file)
            for match in member.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert("." + (text as NSString).substring(with: match.range(at: 1)))
            }
        }
        return names
    }

    /// The names through which statements run: the store and a sync's transaction, and every
    /// query type (Queries/ declares them). StoreError alone runs nothing.
    static func statementRunners() throws -> Set<String> {
        var names: Set<String> = ["Store", "SourceTransaction"]
        let declaration = try NSRegularExpression(pattern: #"^public (?:final )?(?:class|struct|enum) (\w+)"#, options: [.anchorsMatchLines])
        for file in SourceTree.swiftFiles() where file.hasPrefix("QuoteStore/Queries/") {
            let text = try SourceTree.text(file)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert((text as NSString).substring(with: match.range(at: 1)))
            }
        }
        return names
    }

    static func module(of file: String) -> String { String(file.prefix { $0 != "/" }) }

    static func importsStore(_ file: String) throws -> Bool {
        try SourceTree.codeLines(file).contains { $0.text.trimmingCharacters(in: .whitespaces) == "import QuoteStore" }
    }

    /// The code of `file` without its import lines, for looking names up.
    static func code(_ file: String) throws -> String {
        try SourceTree.codeLines(file).map(\.text).filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
    }

    /// Which of `names` the code uses: a type's name as a word, a member (`.quotes`) after a value
    /// or in a key path.
    static func uses(_ names: Set<String>, in code: String) -> [String] {
        names.filter { name in
            let pattern = name.hasPrefix(".") ? #"[\w)\]\\]\#(NSRegularExpression.escapedPattern(for: name))\b"# : #"\b\#(name)\b"#
            return code.range(of: pattern, options: .regularExpression) != nil
        }.sorted()
    }

    @Test func everyFileThatImportsTheStoreUsesIt() throws {
        let names = try Self.storeNames().union(Self.doorNames())
        #expect(names.contains("QuotePicker") && names.contains("StoreError") && !names.contains("SourceName"), "\(names.sorted())")
        #expect(names.contains(".quotes") && names.contains(".write") && !names.contains(".database"), "\(names.sorted())")
        var offenders: [String] = []
        for file in SourceTree.swiftFiles() where try Self.module(of: file) != "QuoteStore" && Self.importsStore(file) {
            if Self.uses(names, in: try Self.code(file)).isEmpty { offenders.append("Sources/\(file)") }
        }
        #expect(offenders.isEmpty, "import QuoteStore but use none of it:\n\(offenders.joined(separator: "\n"))")
    }

    @Test func everyModuleThatImportsTheStoreRunsStatements() throws {
        let runners = try Self.statementRunners()
        var importers: [String: [String]] = [:]
        for file in SourceTree.swiftFiles() where try Self.module(of: file) != "QuoteStore" && Self.importsStore(file) {
            importers[Self.module(of: file), default: []].append(file)
        }
        #expect(importers["QuotectlCommands"] != nil && importers["QuoteSync"] != nil)
        for (module, files) in importers {
            let used = try files.flatMap { Self.uses(runners, in: try Self.code($0)) }
            #expect(!used.isEmpty, "\(module) imports QuoteStore but runs no statement through it (\(files.joined(separator: ", ")))")
        }
    }

    /// Package.swift agrees: the targets that depend on QuoteStore (or on SQLite itself) are the
    /// modules whose sources import it, and no others.
    @Test func onlyModulesThatRunSQLLinkSQLite() throws {
        let manifest = try String(contentsOf: SourceTree.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try NSRegularExpression(pattern: #"\.(?:target|executableTarget)\(\s*name: "(\w[\w-]*)",[^\]]*?dependencies: \[([^\]]*)\]"#,
                                             options: [.dotMatchesLineSeparators])
        var linking = Set<String>()
        for match in target.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)) {
            let name = (manifest as NSString).substring(with: match.range(at: 1))
            let dependencies = (manifest as NSString).substring(with: match.range(at: 2))
            if dependencies.contains("\"QuoteStore\"") || dependencies.contains("\"CSQLite\"") { linking.insert(name) }
        }
        var importing = Set<String>()
        for file in SourceTree.swiftFiles() where try Self.importsStore(file) || SourceTree.codeLines(file).contains(where: { $0.text == "import CSQLite" }) {
            importing.insert(Self.module(of: file))
        }
        #expect(linking.contains("QuoteStore") && linking.contains("QuotectlCommands"), "\(linking.sorted())")
        #expect(linking == importing, "Package.swift links SQLite into \(linking.sorted()); the sources run SQL in \(importing.sorted())")
        let sqlite = target.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)).filter {
            (manifest as NSString).substring(with: $0.range(at: 2)).contains("\"CSQLite\"")
        }.map { (manifest as NSString).substring(with: $0.range(at: 1)) }
        #expect(sqlite == ["QuoteStore"], "Package.swift links SQLite itself into \(sqlite)")
        for shared in ["QuoteModels", "QuoteText", "QuoteConfig", "QuoteControl", "QuoteScheduling"] {
            #expect(!linking.contains(shared), "\(shared) links SQLite")
        }
    }

    /// The rules see what they are for.
    @Test func theRulesSeeWhatTheyAreFor() throws {
        let names = try Self.storeNames()
        #expect(Self.uses(names, in: "let picker: QuotePicker = try finder()") == ["QuotePicker"])
        #expect(Self.uses(try Self.doorNames(), in: "let found = try store.quotes.find(text, limit: 9)") == [".quotes"])
        #expect(Self.uses(try Self.doorNames(), in: "let picker = (try? context.store()).map(\\.quotes)") == [".quotes"])
        #expect(Self.uses(try Self.doorNames(), in: "let read = quotes.count + status.count").isEmpty)
        #expect(Self.uses(names, in: "let name = SourceName.builtin").isEmpty)
        #expect(Self.uses(try Self.statementRunners(), in: "catch let error as StoreError").isEmpty)
    }
}
