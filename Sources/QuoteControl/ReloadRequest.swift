import QuoteBase

/// `reload` over the control socket, for `quoted reload` (what `systemctl reload` runs): the
/// daemon's answer as an exit status and one line, so a refused configuration fails the reload.
public enum ReloadRequest {
    public struct Answer: Equatable, Sendable {
        public let code: ExitCode
        /// The daemon's words ("reloaded: 4 sources enabled", or the refusal naming file and line),
        /// or why there was no answer.
        public let message: String
    }

    /// Asks the first daemon answering at `candidates` and waits for its verdict: 0 applied, 78
    /// refused (the running configuration stays), 77 not allowed, 69 no daemon or no verdict.
    public static func send(candidates: [String], silence: Int = ControlProtocol.silenceLimit) -> Answer {
        let client: ControlClient
        do throws(ControlClient.Failure) {
            guard let found = try ControlClient.connect(sending: .reload, candidates: candidates, silence: silence) else {
                return Answer(code: .unavailable, message: tr("no daemon answers at \(candidates.joined(separator: ", "))"))
            }
            client = found
        } catch {
            return answer(to: error)
        }
        var said: String?
        do throws(ControlClient.Failure) {
            while let reply = try client.nextReply() {
                switch reply.kind {
                case "ok", "error": said = reply.text
                case "end":
                    let code = Int32(reply.text).map(ExitCode.init(rawValue:)) ?? .unavailable
                    return Answer(code: code, message: said ?? tr("the daemon ended its answer with \(reply.text)"))
                default: continue
                }
            }
            return Answer(code: .unavailable, message: tr("the daemon closed the connection before its verdict"))
        } catch {
            return answer(to: error)
        }
    }

    private static func answer(to failure: ControlClient.Failure) -> Answer {
        switch failure {
        case .notRunning: return Answer(code: .unavailable, message: tr("no daemon is running"))
        case .refused(let reason): return Answer(code: .noPermission, message: reason.text)
        case .broken(let reason): return Answer(code: .unavailable, message: tr("control socket: \(reason)"))
        case .notAnswering(let pid):
            guard let pid else { return Answer(code: .unavailable, message: tr("the daemon does not answer")) }
            return Answer(code: .unavailable, message: tr("the daemon (pid \(pid)) does not answer"))
        }
    }
}
