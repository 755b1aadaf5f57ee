// FIONREAD through ioctl, which is variadic and so not imported into Swift.
#include <errno.h>
#include <sys/ioctl.h>
#include "CLifebusSystem.h"

int lifebus_unread_bytes(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) != 0) {
        return -errno;
    }
    return count;
}
