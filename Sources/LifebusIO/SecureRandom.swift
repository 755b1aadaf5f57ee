import CLibUV

/// Random bytes fit for secrets, from the kernel (`uv_random` run synchronously: `getrandom(2)`, else
/// `/dev/urandom`). Stateless; callable from any thread.
public enum SecureRandom {
    /// `count` random bytes; throws when the kernel cannot supply them.
    public static func bytes(_ count: Int) throws(UVError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBytes { uv_random(nil, nil, $0.baseAddress, $0.count, 0, nil) }
        try UVError.check(status, "uv_random")
        return bytes
    }
}
