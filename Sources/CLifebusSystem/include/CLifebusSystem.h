// Small C helpers for what Swift's Glibc module does not import.
#ifndef LIFEBUS_CLIFEBUS_SYSTEM_H
#define LIFEBUS_CLIFEBUS_SYSTEM_H

#include <sys/types.h>

/// The kernel's view of the process at the other end of a connected Unix socket (SO_PEERCRED).
typedef struct lifebus_peer_credentials {
    pid_t pid;
    uid_t uid;
    gid_t gid;
} lifebus_peer_credentials;

/// Reads SO_PEERCRED from `fd`. Returns 0 on success, or -errno.
int lifebus_get_peer_credentials(int fd, lifebus_peer_credentials *out);

/// The bytes waiting in `fd`'s receive queue (FIONREAD; `ioctl` is variadic, which Swift does not import).
/// Returns the count, or -errno.
int lifebus_unread_bytes(int fd);

/// A pidfd for `pid` (pidfd_open, Linux 5.3; close-on-exec). Returns the descriptor, or -errno.
int lifebus_pidfd_open(pid_t pid);

/// Sends `signal` to the process `pidfd` refers to (pidfd_send_signal): never to another process, even after its
/// pid was reused. Returns 0, or -errno (`-ESRCH` once the process has exited).
int lifebus_pidfd_send_signal(int pidfd, int signal);

/// Makes the calling process a child subreaper (prctl PR_SET_CHILD_SUBREAPER): orphans among its descendants are
/// re-parented to it instead of init. Returns 0, or -errno.
int lifebus_set_child_subreaper(void);

/// A pipe whose two ends are close-on-exec from the start (pipe2 O_CLOEXEC: no fork in another thread can inherit
/// them). Returns 0, or -errno.
int lifebus_pipe_cloexec(int ends[2]);

/// A pidfd for the process at the other end of the Unix socket `fd` (SO_PEERPIDFD, Linux 6.5; close-on-exec).
/// Returns the descriptor, or -errno (`-ENOPROTOOPT` on older kernels).
int lifebus_get_peer_pidfd(int fd);

/// Fixes glibc's mmap threshold (which it otherwise raises each time a mapped block is freed) and its heap trim
/// threshold at `bytes` (mallopt, declared in malloc.h, which Glibc does not import). Returns 1, or 0 if refused.
int lifebus_set_malloc_thresholds(int bytes);

/// For every loaded object but the vDSO, the whole pages of its never-written segments (code, read-only data) and,
/// while the process runs one thread, the pages of its writable segments still mapped from the file (read, never
/// written): MADV_DONTNEED (they leave the resident set; clean file pages, they come back from the page cache when
/// touched; a page a process wrote is its own and is never covered), the never-written segments marked MADV_RANDOM
/// first (no read-ahead; the kernel's fault-around still maps cached pages beside a fault). Returns the
/// bytes covered, or -1 if madvise refused some range (or the pagemap could not be read).
long lifebus_release_unwritten_pages(void);

#endif
