/// The method names of the Lifebus protocol (later issues add more). A namespace of constants.
public enum LifebusMethod {
    /// Introduces the peer; must be the first request on a connection.
    public static let hello = "hello"
    /// Liveness check; answers `PingResult`.
    public static let ping = "ping"
    /// Broker → peer notification carrying an error not tied to a request (e.g. the hello timeout); params are
    /// the error object.
    public static let error = "lifebus.error"
}
