import Foundation
import Testing
import TestSupport

/// quotectl must start like a C program: no Foundation in the linked binary (the sources
/// are checked in ArchitectureTests).
@Suite(.offThePool, .timeLimit(.minutes(10))) struct FoundationFreeTests {
    @Test func theQuotectlBinaryLinksNoFoundation() throws {
        let binary = try Data(contentsOf: BinaryRunner.productsFolder.appendingPathComponent("quotectl"))
        // Foundation's Swift symbols are mangled with the module name "10Foundation".
        #expect(binary.range(of: Data("10Foundation".utf8)) == nil)
        #expect(binary.range(of: Data("libFoundation".utf8)) == nil)
    }
}
