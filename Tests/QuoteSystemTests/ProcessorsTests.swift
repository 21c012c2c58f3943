import Glibc
import QuoteSystem
import Testing

@Suite struct ProcessorsTests {
    /// The affinity mask's count: at least one, never more than the machine has.
    @Test func availableProcessorsAreThoseOfTheMachineThisProcessMayUse() {
        let available = Processors.available
        #expect(available >= 1)
        #expect(available <= sysconf(Int32(_SC_NPROCESSORS_CONF)))
    }
}
