import QuoteControl
import Testing

/// The refusals a client acts on are the protocol's words, written and read through one type: the
/// daemon's replies are recognised, and no other reply passes for one.
@Suite struct ControlRefusalTests {
    @Test func theDaemonsRefusalsAreReadBackAsWritten() {
        let busy = ControlReply(kind: "error", text: ControlRefusal.busy.text("16 requests in progress, try again"))
        #expect(busy.line == "error busy: 16 requests in progress, try again")
        #expect(ControlRefusal(busy) == .busy)
        let denied = ControlReply(line: "error " + ControlRefusal.permissionDenied.text("not in group quoted"))
        #expect(denied.text == "permission denied: not in group quoted")
        #expect(ControlRefusal(denied) == .permissionDenied)
        #expect(ControlRefusal.permissionDenied.reason(in: denied) == "not in group quoted")
        #expect(ControlRefusal(ControlReply(kind: "error", text: "busy")) == .busy)
    }

    @Test(arguments: [
        ControlReply(kind: "error", text: "unknown source: busy"),
        ControlReply(kind: "error", text: "reload failed, the running configuration stays: permission denied: /etc/quoted.conf"),
        ControlReply(kind: "error", text: "busybox: not a source name"),
        ControlReply(kind: "fail", text: "busy: a source's own line"),
        ControlReply(kind: "ok", text: "permission denied: a quote's text"),
    ])
    func otherRepliesAreNoRefusal(reply: ControlReply) {
        #expect(ControlRefusal(reply) == nil, "\(reply.line)")
    }
}
