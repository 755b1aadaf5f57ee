// The measuring client of scripts/bench, in C so it costs the same against lifebusd and the C baseline.
//
//   bench_client pingpong PATH N [hello]  N ping requests, one in flight; prints "p50_us p99_us"
//   bench_client oneshot PATH             connect, hello, ping, exit (the one-shot C client)
//   bench_client idle PATH N              opens N connections (each says hello), prints "ready", holds them until stdin closes
//   bench_client spawn N CMD [ARG...]     runs CMD N times, one after another; prints the median wall time in ms
//   bench_client fire|fanout|journal ...  apps answering callbacks from a poll loop (see bench_apps.c)
//   bench_client stall PATH SECONDS PID   a controller sending `status` requests and never reading, for SECONDS
//                                         (reconnecting when dropped); prints "max_rss_kib drops" of process PID
//
// Plain blocking sockets: the client is not what is measured.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_apps.h"

extern char **environ;

static const char hello_line[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"hello\",\"params\":{\"role\":\"controller\",\"protocolVersion\":1}}\n";

static int connect_to(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof(address.sun_path) - 1);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        perror("connect");
        exit(3);
    }
    return fd;
}

static char buffer[1 << 16];
static size_t buffered;

// Reads one line (discarding it); exits on EOF.
static void read_line(int fd) {
    for (;;) {
        char *newline = memchr(buffer, '\n', buffered);
        if (newline) {
            size_t used = (size_t)(newline - buffer) + 1;
            memmove(buffer, buffer + used, buffered - used);
            buffered -= used;
            return;
        }
        ssize_t count = read(fd, buffer + buffered, sizeof(buffer) - buffered);
        if (count <= 0) { fprintf(stderr, "bench_client: connection closed\n"); exit(3); }
        buffered += (size_t)count;
    }
}

static void write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t count = write(fd, bytes, length);
        if (count <= 0) { perror("write"); exit(3); }
        bytes += count;
        length -= (size_t)count;
    }
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// Resident memory of `pid` in KiB (/proc/PID/statm), 0 if unreadable.
static long rss_kib(const char *pid) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%s/statm", pid);
    FILE *file = fopen(path, "r");
    long size = 0, resident = 0;
    if (file) {
        if (fscanf(file, "%ld %ld", &size, &resident) != 2) resident = 0;
        fclose(file);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// A peer that refuses to read: floods `status` requests without blocking, samples the broker's RSS every 100 ms.
static int stall(const char *path, int seconds, const char *pid) {
    static const char request[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"status\"}\n";
    static char burst[sizeof(request) * 256];
    for (int i = 0; i < 256; i++) memcpy(burst + i * (sizeof(request) - 1), request, sizeof(request) - 1);
    size_t burst_length = 256 * (sizeof(request) - 1);
    uint64_t end = now_ns() + (uint64_t)seconds * 1000000000u, next_sample = 0;
    long max_rss = 0;
    int drops = 0;
    int fd = -1;
    while (now_ns() < end) {
        if (fd < 0) {
            fd = connect_to(path);
            write_all(fd, hello_line, sizeof(hello_line) - 1);
            buffered = 0;
            read_line(fd);
        }
        struct pollfd poller = {.fd = fd, .events = POLLOUT};
        if (poll(&poller, 1, 10) > 0) {
            if (poller.revents & (POLLHUP | POLLERR)
                || send(fd, burst, burst_length, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
                close(fd);
                fd = -1;
                drops++;
            }
        }
        if (now_ns() >= next_sample) {
            long rss = rss_kib(pid);
            if (rss > max_rss) max_rss = rss;
            next_sample = now_ns() + 100000000u;
        }
    }
    printf("%ld %d\n", max_rss, drops);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "stall") == 0) {
        return stall(argv[2], atoi(argv[3]), argv[4]);
    }
    if (argc >= 4 && strcmp(argv[1], "pingpong") == 0) {
        int fd = connect_to(argv[2]);
        int count = atoi(argv[3]);
        if (argc >= 5 && strcmp(argv[4], "hello") == 0) {
            write_all(fd, hello_line, sizeof(hello_line) - 1);
            read_line(fd);
        }
        uint64_t *samples = malloc(sizeof(uint64_t) * (size_t)count);
        char line[128];
        for (int i = 0; i < count; i++) {
            int length = snprintf(line, sizeof(line), "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}\n", i + 1);
            uint64_t start = now_ns();
            write_all(fd, line, (size_t)length);
            read_line(fd);
            samples[i] = now_ns() - start;
        }
        qsort(samples, (size_t)count, sizeof(uint64_t), compare);
        printf("%.1f %.1f\n", samples[count / 2] / 1000.0, samples[(count * 99) / 100] / 1000.0);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "oneshot") == 0) {
        int fd = connect_to(argv[2]);
        static const char ping[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
        write_all(fd, hello_line, sizeof(hello_line) - 1);
        write_all(fd, ping, sizeof(ping) - 1);
        read_line(fd);
        read_line(fd);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "idle") == 0) {
        int count = atoi(argv[3]);
        int *fds = malloc(sizeof(int) * (size_t)count);
        for (int i = 0; i < count; i++) {
            fds[i] = connect_to(argv[2]);
            write_all(fds[i], hello_line, sizeof(hello_line) - 1);
        }
        for (int i = 0; i < count; i++) { buffered = 0; read_line(fds[i]); }
        printf("ready\n");
        fflush(stdout);
        while (read(0, buffer, sizeof(buffer)) > 0) {}
        return 0;
    }
    if (argc >= 4 && strcmp(argv[1], "spawn") == 0) {
        int count = atoi(argv[2]);
        uint64_t *samples = malloc(sizeof(uint64_t) * (size_t)count);
        posix_spawn_file_actions_t quiet;  // the command's output is not what is measured
        posix_spawn_file_actions_init(&quiet);
        posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
        for (int i = 0; i < count; i++) {
            uint64_t start = now_ns();
            pid_t child;
            if (posix_spawn(&child, argv[3], &quiet, NULL, argv + 3, environ) != 0) { perror("spawn"); return 3; }
            int status;
            waitpid(child, &status, 0);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) { fprintf(stderr, "child failed\n"); return 1; }
            samples[i] = now_ns() - start;
        }
        qsort(samples, (size_t)count, sizeof(uint64_t), compare);
        printf("%.2f\n", samples[count / 2] / 1e6);
        return 0;
    }
    if (argc >= 3 && (strcmp(argv[1], "fire") == 0 || strcmp(argv[1], "fanout") == 0
                      || strcmp(argv[1], "journal") == 0)) {
        return bench_apps_main(argc, argv);
    }
    fprintf(stderr, "usage: bench_client pingpong PATH N [hello] | oneshot PATH | idle PATH N | spawn N CMD [ARG...]"
                    " | fire|fanout|journal ... | stall PATH SECONDS PID\n");
    return 2;
}
