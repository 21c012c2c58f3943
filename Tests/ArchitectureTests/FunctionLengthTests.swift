import TestSupport
import Testing

/// A reader sees a function whole: no function, initializer, closure-bodied property or command
/// closure in Sources/ runs over `limit` lines, multi-line string literals not counted.
@Suite(.computing) struct FunctionLengthTests {
    static let limit = 60

    static func measured() throws -> [(key: String, place: String, length: Int)] {
        try SourceTree.swiftFiles().flatMap { file in
            try FunctionLengths.declarations(in: SourceTree.text(file)).map { declaration in
                ("\(file): \(declaration.name)", "Sources/\(file):\(declaration.line): \(declaration.name)", declaration.length)
            }
        }
    }

    @Test func noFunctionIsLongerThanAScreen() throws {
        let all = try Self.measured()
        #expect(all.count > 500)
        let long = all.filter { $0.length > Self.limit }.sorted { $0.length > $1.length }
        #expect(long.isEmpty, "over \(Self.limit) lines:\n\(long.map { "\($0.place): \($0.length) lines" }.joined(separator: "\n"))")
    }

    // MARK: The counter itself

    static func lengths(_ source: String) -> [String: Int] {
        Dictionary(FunctionLengths.declarations(in: source).map { ($0.name, $0.length) }, uniquingKeysWith: max)
    }

    @Test func countsFromTheKeywordToTheClosingBrace() {
        let source = """
            struct S {
                /// Not counted: above the keyword.
                func three() {
                    work()
                }
                func one() { work() }
                init(x: Int,
                     y: Int = { 1 }()) {
                    work()
                }
            }
            """
        #expect(Self.lengths(source) == ["func three": 3, "func one": 1, "init": 4])
    }

    @Test func multiLineStringsAreNotCounted() {
        let source = #"""
            func help() -> String {
                let text = """
                    one
                    two
                    three
                    """
                return text
            }
            """#
        // 8 lines, less the string's 4 after its opening line.
        #expect(Self.lengths(source)["func help"] == 4)
    }

    @Test func bracesInStringsAndCommentsAreNotCode() {
        let source = #"""
            func a() {
                let s = "}"
                let r = #"}"#
                let i = "\(f("}"))"
                // }
                /* } /* nested } */ } */
                let t = """
                    }
                    """
            }
            func b() {
                work()
            }
            """#
        let lengths = Self.lengths(source)
        #expect(lengths["func a"] == 8)
        #expect(lengths["func b"] == 3)
    }

    @Test func propertiesAndCommandClosuresHaveBodiesCallsDoNot() {
        let source = """
            let doCommand = Command(spec) { arguments, context in
                work()
                return .success
            }
            var computed: Int {
                1
            }
            static let table: Int = {
                2
            }()
            let plain = f(1)
            protocol P {
                func requirement()
                var value: Int { get }
            }
            func f() {
                if let x = y {
                    let z = Self.init(x)
                }
            }
            """
        #expect(Self.lengths(source) == ["let doCommand": 4, "var computed": 3, "let table": 3, "var value": 1, "func f": 5])
    }
}
