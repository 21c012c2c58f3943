import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteText

/// What the running daemon says of itself, for `quotectl status`.
struct DaemonStatus {
    var running = false
    var pid: Int?
    var uptime: Int?
    /// When it started (Unix seconds) and the syncs it ran since, for the metrics.
    var startedAt: Int?
    var syncsRun: Int?
    var nextDue: [String: Int] = [:]
    var syncing: [String] = []
    var problem: Message?
    /// The daemon runs but refused this user (its peer check): why.
    var refused: String?

    static func query(configured: String?) -> DaemonStatus {
        var status = DaemonStatus()
        do throws(ControlClient.Failure) {
            guard let client = try ControlClient.connect(
                sending: .status, candidates: Locations.sockets(configured: configured), silence: ControlProtocol.quickAnswer)
            else { return status }
            status.pid = client.peerPID
            while let reply = try client.nextReply(), reply.kind != "end" {
                if reply.kind == "error" {
                    // The daemon answered: it runs, even when it refuses this user.
                    // A refused peer is told so in the protocol's own word (`ControlRefusal`).
                    if ControlRefusal(reply) == .permissionDenied {
                        status.running = true
                        // Why: what the daemon said after that word.
                        status.refused = ControlRefusal.permissionDenied.reason(in: reply)
                    } else {
                        status.problem = Message(value: reply.text)
                    }
                    continue
                }
                guard let object = try? JSONParser.parse(reply.text) else { continue }
                switch reply.kind {
                case "daemon":
                    status.running = true
                    status.pid = object["pid"]?.int
                    status.uptime = object["uptime"]?.int
                    status.startedAt = object["started"]?.int
                    status.syncsRun = object["syncs"]?.int
                case "source":
                    guard let name = object["source"]?.string else { continue }
                    if let due = object["next_due"]?.int { status.nextDue[name] = due }
                    if object["running"]?.bool == true { status.syncing.append(name) }
                default:
                    continue
                }
            }
        } catch .notAnswering(let pid) {
            status.running = true
            status.pid = pid ?? status.pid
            status.problem = controlFailure(.notAnswering(pid: pid))
        } catch {
            status.problem = controlFailure(error)
        }
        return status
    }

    var summary: String {
        guard running else {
            return problem.map { tr("Daemon: not reachable (\($0))") } ?? tr("Daemon: not running")
        }
        let process = pid.map { " (pid \($0))" } ?? ""
        if let refused {
            let reason = TerminalSanitizer.clean(refused)
            return tr("Daemon: running\(process), but this user may not talk to it (\(reason))")
        }
        if let problem { return tr("Daemon: running\(process), but \(problem)") }
        let shownPID = pid.map(String.init) ?? "?"
        var text = uptime.map { tr("Daemon: running, pid \(shownPID), up \(durationText($0))") } ?? tr("Daemon: running, pid \(shownPID)")
        if !syncing.isEmpty { text += tr("; syncing \(syncing.joined(separator: ", "))") }
        return text
    }

    var json: String {
        var object = JSONObjectBuilder()
        object.add("kind", "daemon")
        object.add("running", running)
        object.add("pid", pid)
        object.add("uptime", uptime)
        // The control protocol's words, in English as --json is.
        object.add("error", problem?.english ?? refused.map { ControlRefusal.permissionDenied.text($0) })
        return object.result
    }
}
