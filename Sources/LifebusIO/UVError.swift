import CLibUV

/// A libuv status code together with the libuv function (or syscall) that returned it.
///
/// A plain value: it owns nothing and is not bound to any loop. Codes are libuv's negative errno values
/// (`UV_ENOENT` == `-ENOENT` on Linux); the `is…` properties name the ones callers branch on, so users of
/// LifebusIO never need to import libuv themselves.
public struct UVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The negative libuv status code (for example `-2` for `ENOENT`).
    public let code: Int32
    /// The function that failed, for example `"uv_listen"`.
    public let function: String

    public init(code: Int32, function: String) {
        self.code = code
        self.function = function
    }

    /// libuv's short name of the code, for example `"EADDRINUSE"`.
    public var name: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            String(cString: uv_err_name_r(code, buffer.baseAddress, buffer.count))
        }
    }

    /// libuv's human message for the code, for example `"address already in use"`.
    public var message: String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer in
            String(cString: uv_strerror_r(code, buffer.baseAddress, buffer.count))
        }
    }

    /// `"uv_listen: EADDRINUSE (address already in use)"`.
    public var description: String { "\(function): \(name) (\(message))" }

    public var isAgain: Bool { code == UV_EAGAIN.rawValue }
    public var isNotFound: Bool { code == UV_ENOENT.rawValue }
    public var isConnectionRefused: Bool { code == UV_ECONNREFUSED.rawValue }
    public var isConnectionReset: Bool { code == UV_ECONNRESET.rawValue }
    public var isAddressInUse: Bool { code == UV_EADDRINUSE.rawValue }
    public var isBusy: Bool { code == UV_EBUSY.rawValue }
    public var isNoSuchProcess: Bool { code == UV_ESRCH.rawValue }
}

extension UVError {
    init(_ code: uv_errno_t, function: String) {
        self.init(code: code.rawValue, function: function)
    }

    /// Throws when a libuv call returned a negative status.
    @inline(__always)
    static func check(_ status: Int32, _ function: @autoclosure () -> String) throws(UVError) {
        if status < 0 {
            throw UVError(code: status, function: function())
        }
    }
}
