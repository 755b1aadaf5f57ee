public import LifebusContainment

/// Why an app could not be started: the path concerned and the `errno`, e.g. the executable missing (`ENOENT`),
/// not executable (`EACCES`), or the log file not writable. Nothing is left behind when it is thrown: no process,
/// no handle, no open descriptor.
public struct LaunchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let appID: String
    /// What failed, with its path and errno.
    public let cause: SystemError

    public init(appID: String, cause: SystemError) {
        self.appID = appID
        self.cause = cause
    }

    public var path: String { cause.path }
    public var code: Int32 { cause.code }

    public var description: String { "cannot launch \(appID): \(cause)" }
}
