import CSystem
import Glibc

/// How many processors this process may run on: its affinity mask (what systemd's
/// CPUAffinity= or taskset leave it), not the machine's count; at least 1.
public enum Processors {
    public static var available: Int {
        let allowed = Int(quoted_available_processors())
        return allowed > 0 ? allowed : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
