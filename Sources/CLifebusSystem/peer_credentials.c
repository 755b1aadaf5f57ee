// SO_PEERCRED's `struct ucred` is declared only under _GNU_SOURCE, which Swift's Glibc module lacks.
#define _GNU_SOURCE
#include <errno.h>
#include <sys/socket.h>
#include "CLifebusSystem.h"

int lifebus_get_peer_credentials(int fd, lifebus_peer_credentials *out) {
    struct ucred cred;
    socklen_t length = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) {
        return -errno;
    }
    out->pid = cred.pid;
    out->uid = cred.uid;
    out->gid = cred.gid;
    return 0;
}
