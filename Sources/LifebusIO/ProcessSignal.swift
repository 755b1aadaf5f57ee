import CLibUV

/// Sends signals to processes (`uv_kill`). Stateless; callable from any thread.
public enum ProcessSignal {
    /// Sends `signal` to `pid`; returns the error (for example `ESRCH`, `EPERM`) or nil on success.
    public static func send(_ signal: Int32, to pid: Int32) -> UVError? {
        let status = uv_kill(pid, signal)
        return status == 0 ? nil : UVError(code: status, function: "uv_kill")
    }
}
