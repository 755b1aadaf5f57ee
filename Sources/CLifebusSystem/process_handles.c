// pidfd system calls (glibc 2.36 wraps them, older ones do not) and SO_PEERPIDFD (Linux 6.5, missing from older
// headers): exact process handles for the supervisor.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CLifebusSystem.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int lifebus_pidfd_open(pid_t pid) {
    long fd = syscall(SYS_pidfd_open, pid, 0);  // pidfds are always close-on-exec
    return fd < 0 ? -errno : (int)fd;
}

int lifebus_pidfd_send_signal(int pidfd, int signal) {
    return syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0) == 0 ? 0 : -errno;
}

int lifebus_get_peer_pidfd(int fd) {
    int pidfd = -1;
    socklen_t length = sizeof(pidfd);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &length) != 0) {
        return -errno;
    }
    fcntl(pidfd, F_SETFD, FD_CLOEXEC);  // never handed to a spawned app
    return pidfd;
}

int lifebus_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -errno;
}

int lifebus_pipe_cloexec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC) == 0 ? 0 : -errno;
}
