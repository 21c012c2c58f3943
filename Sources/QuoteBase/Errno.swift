import Glibc

/// What a failed system call's errno says, in words ("Permission denied").
public enum Errno {
    public static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
