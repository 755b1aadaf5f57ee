import CLifebusSystem

/// The daemon's allocator policy, set once at start-up before anything is allocated on the broker's behalf.
///
/// glibc raises its mmap threshold each time a mapped block is freed, so after a fan-out the next turn's large
/// transient buffers (the lines a turn journals, the answer a `fire` builds, a grown table's old storage) come from
/// the heap, and the pages they leave there stay resident. A fixed threshold keeps blocks of 128 KiB and more in
/// mappings of their own, returned to the kernel when freed, and a heap whose free top exceeds it is trimmed:
/// 1.2 MiB less resident after a fan-out to 1,000 apps, a few mmap(2) calls per such turn.
enum MallocPolicy {
    /// Blocks of this size or more are mapped on their own; free heap top beyond it is returned.
    static let thresholdBytes: Int32 = 128 * 1024

    /// Applies the policy (it overrides glibc's tunables `glibc.malloc.mmap_threshold` and `trim_threshold`).
    static func apply() {
        _ = lifebus_set_malloc_thresholds(thresholdBytes)
    }
}
