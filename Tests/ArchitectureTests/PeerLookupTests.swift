import Foundation
import TestSupport
import Testing

/// The control socket's one serving thread never waits on the user database: a peer is judged
/// by the credentials the kernel gives (SO_PEERCRED, SO_PEERGROUPS), and the only lookup the
/// daemon makes — its group's name, for messages — happens when the policy is made, at start-up.
@Suite(.computing) struct PeerLookupTests {
    /// The lines of QuoteDaemon that ask the user database.
    static func lookups() throws -> [(file: String, number: Int)] {
        try SourceTree.swiftFiles().filter { $0.hasPrefix("QuoteDaemon/") }.flatMap { file in
            try SourceTree.codeLines(file).filter { $0.text.contains("UserDatabase.") }.map { (file, $0.number) }
        }
    }

    @Test func onlyThePolicysInitializerAsksTheUserDatabase() throws {
        let found = try Self.lookups()
        #expect(!found.isEmpty, "the group's name is looked up somewhere")
        let policy = "QuoteDaemon/PeerPolicy.swift"
        let initializers = FunctionLengths.declarations(in: try SourceTree.text(policy)).filter { $0.name == "init" }
        for lookup in found {
            let inInitializer = lookup.file == policy && initializers.contains { lookup.number >= $0.line && lookup.number < $0.line + $0.length }
            #expect(inInitializer, "Sources/\(lookup.file):\(lookup.number) asks the user database outside start-up")
        }
    }

    @Test func theServingPathNamesNoLookup() throws {
        for file in ["QuoteDaemon/ControlServer.swift", "QuoteDaemon/PeerPolicy.swift"] {
            let named = try SourceTree.codeLines(file).filter { line in
                ["getpw", "getgr", "initgroups", "groups(ofUser"].contains { line.text.contains($0) }
            }
            #expect(named.isEmpty, "\(file): \(named.map(\.text))")
        }
    }
}
