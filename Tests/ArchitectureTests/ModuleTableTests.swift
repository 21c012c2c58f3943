import Foundation
import TestSupport
import Testing

/// ARCHITECTURE.md's module table is Package.swift's targets: a row for each (the test targets
/// aside), its "depends on" column the dependencies Package.swift declares, every module below
/// the ones it depends on; and a module imports only the project modules it declares, which is
/// what Swift wants even where a transitive dependency would build.
@Suite(.computing) struct ModuleTableTests {
    /// A row of the table: the modules its first cell names, and its "depends on" cell.
    struct Row {
        let modules: [String]
        let dependencies: Set<String>
        let cellCount: Int
    }

    static func manifest() throws -> String {
        try String(contentsOf: SourceTree.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    static func architecture() throws -> String {
        try String(contentsOf: SourceTree.root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
    }

    /// Every target of `manifest` but the test targets, with the dependencies it declares. Each
    /// target's text runs from its `.target(` (or `.executableTarget(`, `.systemLibrary(`,
    /// `.plugin(`) to the next one's; comments are left out, so prose may name targets.
    static func targets(in manifest: String) throws -> [String: Set<String>] {
        let text = manifest.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let code = String(line)
            guard let comment = code.range(of: "//") else { return code }
            return String(code[..<comment.lowerBound])
        }.joined(separator: "\n")
        let code = text as NSString
        let call = try NSRegularExpression(pattern: #"\.(target|executableTarget|systemLibrary|plugin|testTarget)\("#)
        let name = try NSRegularExpression(pattern: #"name: "([\w-]+)""#)
        let list = try NSRegularExpression(pattern: #"dependencies: \[([^\]]*)\]"#)
        let quoted = try NSRegularExpression(pattern: #""([\w-]+)""#)
        let calls = call.matches(in: text, range: NSRange(text.startIndex..., in: text))
        var targets: [String: Set<String>] = [:]
        for (index, match) in calls.enumerated() where code.substring(with: match.range(at: 1)) != "testTarget" {
            let end = index + 1 < calls.count ? calls[index + 1].range.location : code.length
            let target = code.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            let whole = NSRange(target.startIndex..., in: target)
            guard let named = name.firstMatch(in: target, range: whole) else { continue }
            var dependencies = Set<String>()
            if let declared = list.firstMatch(in: target, range: whole) {
                let names = (target as NSString).substring(with: declared.range(at: 1))
                for dependency in quoted.matches(in: names, range: NSRange(names.startIndex..., in: names)) {
                    dependencies.insert((names as NSString).substring(with: dependency.range(at: 1)))
                }
            }
            targets[(target as NSString).substring(with: named.range(at: 1))] = dependencies
        }
        return targets
    }

    /// The cells of a table row, trimmed, without the empty ones outside its first and last `|`.
    static func cells(of row: String) -> [String] {
        Array(row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast())
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The table whose header starts `| module |`: its number of columns, and its rows in order.
    static func table(in document: String) -> (columns: Int, rows: [Row]) {
        let lines = document.split(separator: "\n").map(String.init)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| module |") }) else { return (0, []) }
        let columns = Self.cells(of: lines[header])
        guard let column = columns.firstIndex(of: "depends on") else { return (columns.count, []) }
        let rows = lines[(header + 1)...].prefix { $0.hasPrefix("|") }.filter { !$0.hasPrefix("|---") }.map { line -> Row in
            let values = Self.cells(of: line)
            // "`quoted`, `quotectl`": every back-quoted name of the first cell.
            let modules = (values.first ?? "").split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let named = column < values.count ? values[column].replacingOccurrences(of: "`", with: "") : ""
            let dependencies = named.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != "—" }
            return Row(modules: modules, dependencies: Set(dependencies), cellCount: values.count)
        }
        return (columns.count, rows)
    }

    /// Every module `module` depends on, directly or through another.
    static func closure(of module: String, in targets: [String: Set<String>]) -> Set<String> {
        var found = Set<String>()
        var pending: [String] = []
        if let direct = targets[module] { pending += direct }
        while let next = pending.popLast() {
            guard found.insert(next).inserted else { continue }
            if let more = targets[next] { pending += more }
        }
        return found
    }

    @Test func theTableHasARowForEveryTargetAndNoOther() throws {
        let targets = try Self.targets(in: Self.manifest())
        #expect(targets["QuoteStore"] != nil && targets["quotectl"] != nil && targets["QuoteStoreTests"] == nil, "\(targets.keys.sorted())")
        let (columns, rows) = Self.table(in: try Self.architecture())
        #expect(columns >= 3 && rows.count >= 15, "ARCHITECTURE.md has no module table with a \"depends on\" column")
        var problems: [String] = []
        var named: [String: Int] = [:]
        for row in rows {
            if row.cellCount != columns { problems.append("the row of \(row.modules) has \(row.cellCount) cells, not \(columns)") }
            for module in row.modules { named[module, default: 0] += 1 }
        }
        for module in targets.keys.sorted() where named[module] == nil {
            problems.append("Package.swift's target \(module) has no row in ARCHITECTURE.md's module table")
        }
        for (module, count) in named.sorted(by: { $0.key < $1.key }) {
            if targets[module] == nil { problems.append("ARCHITECTURE.md's module table names \(module), which Package.swift does not declare") }
            if count > 1 { problems.append("ARCHITECTURE.md's module table names \(module) in \(count) rows") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func everyRowSaysWhatPackageSwiftDeclares() throws {
        let targets = try Self.targets(in: Self.manifest())
        var problems: [String] = []
        for row in Self.table(in: try Self.architecture()).rows {
            for module in row.modules {
                guard let declared = targets[module], declared != row.dependencies else { continue }
                problems.append("\(module): ARCHITECTURE.md says it depends on \(row.dependencies.sorted()), "
                                + "Package.swift declares \(declared.sorted())")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func everyModuleComesAfterWhatItDependsOn() throws {
        let rows = Self.table(in: try Self.architecture()).rows
        var position: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            for module in row.modules { position[module] = index }
        }
        var problems: [String] = []
        for (index, row) in rows.enumerated() {
            for dependency in row.dependencies.sorted() where (position[dependency] ?? Int.max) >= index {
                problems.append("\(row.modules.joined(separator: ", ")) depends on \(dependency), which is not in a row above it")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func everyImportOfAProjectModuleIsDeclared() throws {
        let targets = try Self.targets(in: Self.manifest())
        let importLine = try NSRegularExpression(pattern: #"^\s*(?:@\w+\s+)?(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(\w+)"#)
        var offenders: [String] = []
        let files = SourceTree.swiftFiles()
        #expect(files.count > 50)
        for file in files {
            let module = String(file.prefix { $0 != "/" })
            let declared = targets[module] ?? []
            for (number, line) in try SourceTree.codeLines(file) {
                guard let match = importLine.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
                let imported = (line as NSString).substring(with: match.range(at: 1))
                if imported != module, targets[imported] != nil, !declared.contains(imported) {
                    offenders.append("Sources/\(file):\(number): import \(imported), which Package.swift does not declare for \(module)")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    /// The daemon runs each sync as a child, and quotectl runs `quoted sync --once` when no daemon
    /// answers: neither links the HTTP stack.
    @Test func theDaemonAndQuotectlLinkNoNetworking() throws {
        let targets = try Self.targets(in: Self.manifest())
        let networking: Set<String> = ["QuoteSync", "CCurl", "CLibcurl"]
        for module in ["QuoteDaemon", "QuotectlCommands", "quotectl"] {
            #expect(targets[module] != nil, "\(module) is not in Package.swift")
            let linked = Self.closure(of: module, in: targets).intersection(networking)
            #expect(linked.isEmpty, "\(module) links \(linked.sorted())")
        }
        #expect(Self.closure(of: "quoted", in: targets).contains("CLibcurl"))
    }

    /// The parsers read what they are for.
    @Test func theParsersSeeWhatTheyAreFor() throws {
        let manifest = """
            targets: [
                // A comment may name .target(name: "Commented", dependencies: ["X"]).
                .target(name: "A"),
                .plugin(name: "P", capability: .buildTool(), dependencies: ["tool"]),
                .target(name: "B", dependencies: ["A", "CLib"], plugins: ["P"]),
                .executableTarget(
                    name: "app",
                    dependencies: ["B"],
                    linkerSettings: [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
                ),
                .testTarget(name: "BTests", dependencies: ["B"]),
            ]
            """
        let found = try Self.targets(in: manifest)
        let expected: [String: Set<String>] = ["A": [], "P": ["tool"], "B": ["A", "CLib"], "app": ["B"]]
        #expect(found == expected, "\(found)")

        let document = """
            Before.

            | module | holds | depends on | Foundation |
            |---|---|---|---|
            | `A` | the first | — | no |
            | `B`, `C` | two at once | A, `D` | no |

            After.
            """
        let (columns, rows) = Self.table(in: document)
        #expect(columns == 4)
        let modules: [[String]] = [["A"], ["B", "C"]]
        let dependencies: [Set<String>] = [[], ["A", "D"]]
        #expect(rows.map(\.modules) == modules)
        #expect(rows.map(\.dependencies) == dependencies)
        #expect(rows.allSatisfy { $0.cellCount == 4 })
        let reached: Set<String> = ["A", "B", "CLib"]
        #expect(Self.closure(of: "app", in: found) == reached)
    }
}
