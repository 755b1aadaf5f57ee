// The app-side modes of bench_client: one process holding many app connections and one controller connection,
// answering every callback at once from a poll(2) loop. Same code against lifebusd and the C relay, so the
// difference measured is the server's.
//
//   fire    PATH N [relay]             N fire round trips with one app; prints "p50_us p99_us"
//   fanout  PATH APPS ROUNDS [relay|scenes]
//                                      one memory warning to APPS apps until all answered; prints median ms
//   journal PATH APPS FIRES [relay]    FIRES memory warnings (pipelined, 32 in flight) to APPS apps; prints
//                                      "transitions seconds client_cpu server_cpu" (against `baseline_server relay
//                                      PATH JOURNAL`): the CPU seconds (user + system) the client and the server
//                                      spent in the timed part, the server's read from /proc/PID/schedstat (its pid
//                                      from the kernel: SO_PEERCRED on the controller's socket)
//
// Against lifebusd each app says hello as an app (launched in the background, audio mode, so it is never
// suspended and gets every memory warning) and the controller fires `memory-warning`, waiting for the FireResult.
// With `scenes` (a broker whose profile has scenes, e.g. `lifebusd --profile ios13`) each app's hello says
// `"scenes":true` and it launches into the foreground instead, so each gets its launch's `configurationForConnecting`,
// `willConnectTo` and scene callbacks (answered as any callback) and has a connected scene 1 when the warnings come.
// Against the relay each app's first line is "app" and the controller sends the callback request line itself;
// the relay hands it to every app and each answer back: controller -> relay -> app -> relay -> controller.
#define _GNU_SOURCE  // memmem
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bench_apps.h"

typedef struct {
    int fd;
    char *bytes;
    size_t length, capacity;
} peer_t;

static peer_t *apps;
static int app_count;
static peer_t controller;
static struct pollfd *polls;
static int relay;
static int scenes;
static long app_answers;
static long controller_lines;
static long waits_answered;

static int connect_unix(const char *path) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof(address.sun_path) - 1);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
        perror("bench_client: connect");
        exit(3);
    }
    return fd;
}

static void send_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t count = write(fd, bytes, length);
        if (count <= 0) { perror("bench_client: write"); exit(3); }
        bytes += count;
        length -= (size_t)count;
    }
}

static uint64_t monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// CPU seconds (user + system) this process has used.
static double own_cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// CPU seconds the process at the other end of `fd` has used (all its threads: /proc/PID/schedstat's first field,
// nanoseconds on a CPU); -1 when it cannot be read.
static double peer_cpu_seconds(int fd) {
    struct ucred peer;
    socklen_t size = sizeof(peer);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0) return -1;
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)peer.pid);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    unsigned long long nanoseconds = 0;
    int read = fscanf(file, "%llu", &nanoseconds);
    fclose(file);
    return read == 1 ? (double)nanoseconds / 1e9 : -1;
}

// The raw id token of a JSON-RPC line (the first "id" member: the envelope's, as both servers write it first).
static int copy_id(const char *line, size_t length, char *id, size_t size) {
    const char *found = memmem(line, length, "\"id\":", 5);
    if (!found) return 0;
    const char *start = found + 5, *end = start;
    while (end < line + length && *end != ',' && *end != '}') end++;
    size_t n = (size_t)(end - start);
    if (n == 0 || n >= size) return 0;
    memcpy(id, start, n);
    id[n] = 0;
    return 1;
}

static void app_line(peer_t *app, const char *line, size_t length) {
    char id[64];
    if (!memmem(line, length, "\"method\"", 8) || !copy_id(line, length, id, sizeof(id))) return;
    char answer[128];
    int n = snprintf(answer, sizeof(answer), "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n", id);
    send_all(app->fd, answer, (size_t)n);
    app_answers++;
}

static void controller_line(const char *line, size_t length) {
    if (!relay && memmem(line, length, "\"error\"", 7)) {
        fprintf(stderr, "bench_client: the broker answered an error: %.*s\n", (int)(length > 400 ? 400 : length), line);
        exit(1);
    }
    char id[64];  // ids 9xxxxxxx answer the controller's hello and the settling `wait` requests

    if (!relay && copy_id(line, length, id, sizeof(id)) && strlen(id) == 8 && id[0] == '9') {
        waits_answered++;
        return;
    }
    controller_lines++;
}

// Reads what is there on one peer and handles each whole line; exits when the server closes.
static void drain(peer_t *peer, int is_app) {
    if (peer->capacity - peer->length < 65536) {
        peer->capacity = peer->capacity * 2 + 65536;
        peer->bytes = realloc(peer->bytes, peer->capacity);
    }
    ssize_t count = read(peer->fd, peer->bytes + peer->length, peer->capacity - peer->length);
    if (count <= 0) { fprintf(stderr, "bench_client: the server closed a connection\n"); exit(3); }
    peer->length += (size_t)count;
    size_t start = 0;
    for (;;) {
        char *newline = memchr(peer->bytes + start, '\n', peer->length - start);
        if (!newline) break;
        size_t length = (size_t)(newline - (peer->bytes + start));
        if (is_app) app_line(peer, peer->bytes + start, length); else controller_line(peer->bytes + start, length);
        start += length + 1;
    }
    memmove(peer->bytes, peer->bytes + start, peer->length - start);
    peer->length -= start;
}

// Runs the poll loop until *counter reaches target, answering every app callback meanwhile.
static void pump_until(long *counter, long target) {
    while (*counter < target) {
        int ready = poll(polls, (nfds_t)app_count + 1, 60000);
        if (ready <= 0) { fprintf(stderr, "bench_client: nothing happened for 60 s\n"); exit(1); }
        if (polls[app_count].revents) drain(&controller, 0);
        for (int i = 0; i < app_count; i++) {
            if (polls[i].revents) drain(&apps[i], 1);
        }
    }
}

// Requests a controller may leave unanswered while it sends more (the broker stops reading a peer at 64).
#define MAX_IN_FLIGHT 32

// Sends the request numbered `sequence` (from 1) once fewer than MAX_IN_FLIGHT are unanswered, counting answers in
// *answered from `answered_before` on, `per_request` lines to an answered request (the relay passes on each app's
// answer); pumps meanwhile, so apps are answered while the controller waits its turn.
static void send_paced(const char *line, size_t length, long sequence, long *answered, long answered_before,
                       long per_request) {
    if (sequence > MAX_IN_FLIGHT) pump_until(answered, answered_before + (sequence - MAX_IN_FLIGHT) * per_request);
    send_all(controller.fd, line, length);
}

static void connect_all(const char *path, int count) {
    app_count = count;
    apps = calloc((size_t)count, sizeof(peer_t));
    polls = calloc((size_t)count + 1, sizeof(struct pollfd));
    char line[512];
    for (int i = 0; i < count; i++) {
        apps[i].fd = connect_unix(path);
        polls[i] = (struct pollfd){.fd = apps[i].fd, .events = POLLIN};
        int n = relay ? snprintf(line, sizeof(line), "app\n") : snprintf(line, sizeof(line),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hello\",\"params\":{\"role\":\"app\",\"protocolVersion\":1,"
            "\"app\":{\"id\":\"com.bench.p%d.a%d\",\"backgroundModes\":[\"audio\"],%s}}}\n",
            (int)getpid(), i, scenes ? "\"scenes\":true" : "\"launchInBackground\":true");
        send_all(apps[i].fd, line, (size_t)n);
    }
    controller.fd = connect_unix(path);
    polls[count] = (struct pollfd){.fd = controller.fd, .events = POLLIN};
    if (relay) return;
    static const char hello[] =
        "{\"jsonrpc\":\"2.0\",\"id\":90000000,\"method\":\"hello\",\"params\":{\"role\":\"controller\",\"protocolVersion\":1}}\n";
    send_all(controller.fd, hello, sizeof(hello) - 1);
    // Settle: every app launched into the background (each `wait` answers when its app is there); a scene app, its
    // scene 1 connected and launched (active, or in the background once a later app's launch moved it there).
    for (int i = 0; i < count; i++) {
        int n = scenes ? snprintf(line, sizeof(line),
            "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"wait\",\"params\":{\"app\":\"com.bench.p%d.a%d\",\"scene\":1,"
            "\"state\":[\"foregroundActive\",\"background\"],\"timeoutMs\":60000}}\n", 90000001 + i, (int)getpid(), i)
            : snprintf(line, sizeof(line),
            "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"wait\",\"params\":{\"app\":\"com.bench.p%d.a%d\","
            "\"state\":\"background\",\"timeoutMs\":60000}}\n", 90000001 + i, (int)getpid(), i);
        send_paced(line, (size_t)n, i + 1, &waits_answered, 1, 1);
    }
    pump_until(&waits_answered, count + 1);
}

// One event: a fire to the broker, or the callback request line itself to the relay.
static int event_line(char *line, size_t size, long sequence) {
    if (relay) {
        return snprintf(line, size,
            "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"didReceiveMemoryWarning\",\"params\":{\"callbackID\":%ld,"
            "\"callback\":\"didReceiveMemoryWarning\",\"state\":\"background\",\"budgetMs\":10000,"
            "\"cause\":{\"eventID\":%ld,\"event\":\"memory-warning\"}}}\n", sequence, sequence, sequence);
    }
    return snprintf(line, size,
        "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"fire\",\"params\":{\"event\":\"memory-warning\"}}\n", sequence);
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int bench_apps_main(int argc, char **argv) {
    const char *mode = argv[1], *path = argv[2];
    relay = strcmp(argv[argc - 1], "relay") == 0;
    scenes = strcmp(mode, "fanout") == 0 && strcmp(argv[argc - 1], "scenes") == 0;
    char line[1024];
    if (strcmp(mode, "fire") == 0 && argc >= 4) {
        long count = atol(argv[3]), warmup = count / 10 + 1;
        connect_all(path, 1);
        uint64_t *samples = malloc(sizeof(uint64_t) * (size_t)count);
        for (long i = 0; i < warmup + count; i++) {
            int n = event_line(line, sizeof(line), i + 1);
            uint64_t start = monotonic_ns();
            send_all(controller.fd, line, (size_t)n);
            pump_until(&controller_lines, i + 1);
            if (i >= warmup) samples[i - warmup] = monotonic_ns() - start;
        }
        qsort(samples, (size_t)count, sizeof(uint64_t), compare_u64);
        printf("%.1f %.1f\n", samples[count / 2] / 1000.0, samples[(count * 99) / 100] / 1000.0);
        return 0;
    }
    if (strcmp(mode, "fanout") == 0 && argc >= 5) {
        int count = atoi(argv[3]), rounds = atoi(argv[4]);
        connect_all(path, count);
        uint64_t *samples = malloc(sizeof(uint64_t) * (size_t)rounds);
        long per_event = relay ? count : 1;
        for (int i = 0; i < rounds + 1; i++) {
            int n = event_line(line, sizeof(line), i + 1);
            uint64_t start = monotonic_ns();
            send_all(controller.fd, line, (size_t)n);
            pump_until(&controller_lines, per_event * (i + 1));
            if (i > 0) samples[i - 1] = monotonic_ns() - start;  // the first round warms up
        }
        if (app_answers < (long)count * (rounds + 1)) { fprintf(stderr, "bench_client: answers missing\n"); return 1; }
        qsort(samples, (size_t)rounds, sizeof(uint64_t), compare_u64);
        printf("%.2f\n", samples[rounds / 2] / 1e6);
        return 0;
    }
    if (strcmp(mode, "journal") == 0 && argc >= 5) {
        int count = atoi(argv[3]), fires = atoi(argv[4]);
        connect_all(path, count);
        long before = app_answers, per_event = relay ? count : 1;
        double client_cpu = own_cpu_seconds(), server_cpu = peer_cpu_seconds(controller.fd);
        uint64_t start = monotonic_ns();
        for (int i = 0; i < fires; i++) {
            int n = event_line(line, sizeof(line), i + 1);
            send_paced(line, (size_t)n, i + 1, &controller_lines, 0, per_event);
        }
        pump_until(&controller_lines, fires * per_event);
        double seconds = (monotonic_ns() - start) / 1e9;
        double server_after = peer_cpu_seconds(controller.fd);
        printf("%ld %.3f %.6f %.6f\n", app_answers - before, seconds, own_cpu_seconds() - client_cpu,
               server_cpu < 0 || server_after < 0 ? -1.0 : server_after - server_cpu);
        return 0;
    }
    fprintf(stderr, "usage: bench_client fire PATH N [relay] | fanout PATH APPS ROUNDS [relay|scenes] | journal PATH APPS FIRES [relay]\n");
    return 2;
}
