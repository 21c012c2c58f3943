/// The refusals a client acts on, each an `error` reply whose text starts with its word, a colon
/// and why: the daemon writes them through this type and clients read them back through it, so
/// the word is the protocol's, named once, and no other error's message can pass for one.
public enum ControlRefusal: String, CaseIterable, Sendable {
    /// The daemon answers too many requests already: try again shortly.
    case busy = "busy"
    /// This peer may not ask that (not in the daemon's group, or a reload from another user).
    // English on purpose: the control protocol's word for a refused peer, never translated.
    case permissionDenied = "permission denied"

    /// The `error` reply's text: the word, then why.
    public func text(_ reason: String) -> String {
        rawValue + ": " + reason
    }

    /// The refusal `reply` is, when it is one of these.
    public init?(_ reply: ControlReply) {
        guard reply.kind == "error",
              let match = Self.allCases.first(where: { reply.text == $0.rawValue || reply.text.hasPrefix($0.rawValue + ":") }) else {
            return nil
        }
        self = match
    }

    /// Why, as the reply gave it after the word (empty when it gave none).
    public func reason(in reply: ControlReply) -> String {
        String(reply.text.dropFirst(rawValue.count).drop { $0 == ":" || $0 == " " })
    }
}
