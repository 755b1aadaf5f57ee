/// The protocol version this module speaks (sent in `hello`, answered in `HelloResult`).
public enum ProtocolVersion {
    public static let current = 1
}

/// The version of the Lifebus software.
public enum LifebusVersion {
    public static let current = "0.1.0"
}
