import CLibUV
import Glibc

/// Sends signals to processes (`uv_kill`). Stateless; callable from any thread.
public enum ProcessSignal {
    /// Sends `signal` to `pid`; returns the error (for example `ESRCH`, `EPERM`) or nil on success.
    public static func send(_ signal: Int32, to pid: Int32) -> UVError? {
        let status = uv_kill(pid, signal)
        return status == 0 ? nil : UVError(code: status, function: "uv_kill")
    }

    /// SIGKILL to the process group `pid` leads, when `pid` leads one (its process group id is its pid), so the
    /// children it runs in its group (a `lifebus subscribe` program and its hooks) die with it; else SIGKILL to
    /// `pid` alone. A group the process does not lead is never signalled (it may be the shell's, or ours).
    public static func kill(processOrItsGroup pid: Int32) -> UVError? {
        guard pid > 0 else { return UVError(code: -EINVAL, function: "uv_kill") }
        if getpgid(pid) == pid, pid != getpgrp() {
            return send(SIGKILL, to: -pid)
        }
        return send(SIGKILL, to: pid)
    }
}
