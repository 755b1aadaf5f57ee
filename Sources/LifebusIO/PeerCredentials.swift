/// The identity of the process at the other end of a Unix socket, as the kernel reports it (`SO_PEERCRED`) at
/// connect/accept time. A plain value; never taken from anything the peer says.
public struct PeerCredentials: Sendable, Equatable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}
