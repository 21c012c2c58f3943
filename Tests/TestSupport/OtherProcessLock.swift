import Foundation

/// Whether another process can take the POSIX lock on `path` now (it takes and drops it at once):
/// such a lock is the whole process's, so this process's own holders would not see each other.
public func anotherProcessCanLock(_ path: String) throws -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", "import fcntl, sys; f = open(sys.argv[1], 'a+'); fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)", path]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
}
