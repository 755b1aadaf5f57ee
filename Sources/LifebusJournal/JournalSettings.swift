/// How the broker keeps its journal: where, how big a file may grow, whether answers wait for the disk.
/// A plain value made from `BrokerConfiguration`.
public struct JournalSettings: Sendable, Equatable {
    /// The journal file, or `nil` for memory only.
    public var path: String?
    /// Rotate the file once it holds this many bytes (`nil`: never), keeping `JournalFile.rotatedFilesKept` old ones.
    public var maxBytes: Int?
    /// fdatasync(2) before a controller is answered or an observer told (group commit: once per loop turn).
    public var syncs: Bool

    public init(path: String?, maxBytes: Int? = nil, syncs: Bool = false) {
        self.path = path
        self.maxBytes = maxBytes
        self.syncs = syncs
    }
}
