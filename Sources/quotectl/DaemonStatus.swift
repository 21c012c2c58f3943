import QuoteBase
import QuoteConfig
import QuoteControl
import QuoteStore

/// What the running daemon says of itself, for `quotectl status`.
struct DaemonStatus {
    var running = false
    var pid: Int?
    var uptime: Int?
    var nextDue: [String: Int] = [:]
    var syncing: [String] = []
    var problem: String?

    static func query(configured: String?) -> DaemonStatus {
        var status = DaemonStatus()
        do throws(ControlClient.Failure) {
            guard let client = try ControlClient.connect(
                sending: .status, candidates: Locations.sockets(configured: configured), timeout: 3)
            else { return status }
            while let reply = try client.nextReply(), reply.kind != "end" {
                guard let object = try? JSONParser.parse(reply.text) else { continue }
                switch reply.kind {
                case "daemon":
                    status.running = true
                    status.pid = object["pid"]?.int
                    status.uptime = object["uptime"]?.int
                case "source":
                    guard let name = object["source"]?.string else { continue }
                    if let due = object["next_due"]?.int { status.nextDue[name] = due }
                    if object["running"]?.bool == true { status.syncing.append(name) }
                case "error":
                    status.problem = reply.text
                default:
                    continue
                }
            }
        } catch {
            status.problem = controlFailureText(error)
        }
        return status
    }

    var summary: String {
        guard running else {
            return "Daemon: " + (problem.map { "not reachable (\($0))" } ?? "not running")
        }
        var text = "Daemon: running, pid \(pid.map(String.init) ?? "?")"
        if let uptime { text += ", up " + durationText(uptime) }
        if !syncing.isEmpty { text += "; syncing " + syncing.joined(separator: ", ") }
        return text
    }

    var json: String {
        var object = JSONObjectBuilder()
        object.add("running", running)
        object.add("pid", pid)
        object.add("uptime", uptime)
        object.add("error", problem)
        return "{\"daemon\":" + object.result + "}"
    }
}
