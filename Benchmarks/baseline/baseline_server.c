// The C baseline for scripts/bench: the least any libuv line server costs.
//
//   baseline_server echo  PATH   answers each line with the same line
//   baseline_server relay PATH   a client whose first line is "app" is an app; any other client is a controller.
//                                A controller's line goes to every app; an app's line goes back to the controller
//                                that sent the last line (fire -> app -> answer, and fan-out).
//   baseline_server relay PATH JOURNAL
//                                the relay that journals as lifebusd does: each app line is appended to the file
//                                JOURNAL, written once per loop turn before any of that turn's lines is passed on
//                                to the controller (the least "the journal written before anyone is told" costs).
//   baseline_server relay-serial PATH JOURNAL
//                                the journaling relay, but each app has at most one line outstanding, as lifebusd
//                                keeps one callback outstanding per app: an app gets the controller's next line
//                                only after it answered the last (the least per-app serialisation costs).
//
// Prints "listening on PATH" when ready, exits on SIGINT/SIGTERM. Lines are at most 1 MiB.
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#define MAX_LINE (1 << 20)
#define MAX_APPS 4096

typedef struct client {
    uv_pipe_t pipe;
    char *partial;
    size_t partial_length;
    int is_app;
    int introduced;
    size_t next_line;   // relay-serial: the index in controller_lines of the next line this app gets
    int outstanding;    // relay-serial: a line was sent and not answered yet
} client_t;

typedef struct write_request {
    uv_write_t request;
    char bytes[];
} write_request_t;

static uv_loop_t *loop;
static uv_pipe_t server;
static uv_signal_t sigint_watcher, sigterm_watcher;
static int relay_mode;
static client_t *apps[MAX_APPS];
static int app_count;
static client_t *controller;
static char read_buffer[65536];
static int journal_fd = -1;      // relay with a journal: the file, and this turn's lines held until it is written
static char *turn_lines;
static size_t turn_length, turn_capacity;
static uv_prepare_t turn_end;
static int serial_mode;          // relay-serial: the controller's lines, kept for the apps that have not had them
static char **controller_lines;
static size_t *controller_lengths;
static size_t controller_count, controller_capacity;

static void on_write(uv_write_t *request, int status) {
    (void)status;
    free(request);
}

static void send_line(client_t *to, const char *line, size_t length) {
    uv_buf_t buffers[2] = {uv_buf_init((char *)line, (unsigned)length), uv_buf_init("\n", 1)};
    int sent = uv_try_write((uv_stream_t *)&to->pipe, buffers, 2);
    if (sent < 0) sent = 0;
    if ((size_t)sent == length + 1) return;
    size_t remaining = length + 1 - (size_t)sent;
    write_request_t *request = malloc(sizeof(write_request_t) + remaining);
    if ((size_t)sent < length) {
        memcpy(request->bytes, line + sent, length - (size_t)sent);
        request->bytes[length - (size_t)sent] = '\n';
    } else {
        request->bytes[0] = '\n';
    }
    uv_buf_t rest = uv_buf_init(request->bytes, (unsigned)remaining);
    uv_write(&request->request, (uv_stream_t *)&to->pipe, &rest, 1, on_write);
}

// An app's answer, journaled: appended to this turn's lines, which are both the journal's text and what the
// controller is sent once they are written.
static void hold_for_journal(const char *line, size_t length) {
    if (turn_length + length + 1 > turn_capacity) {
        turn_capacity = (turn_length + length + 1) * 2;
        turn_lines = realloc(turn_lines, turn_capacity);
    }
    memcpy(turn_lines + turn_length, line, length);
    turn_lines[turn_length + length] = '\n';
    turn_length += length + 1;
}

// The end of a loop turn (before libuv polls again): the turn's lines in one journal write, then to the controller.
static void on_turn_end(uv_prepare_t *handle) {
    (void)handle;
    if (turn_length == 0) return;
    size_t written = 0;
    while (written < turn_length) {
        ssize_t count = write(journal_fd, turn_lines + written, turn_length - written);
        if (count <= 0) { perror("baseline_server: journal"); exit(1); }
        written += (size_t)count;
    }
    if (controller) send_line(controller, turn_lines, turn_length - 1);
    turn_length = 0;
}

// relay-serial: sends `app` the next controller line it has not had, if it has none outstanding.
static void send_next(client_t *app) {
    if (app->outstanding || app->next_line >= controller_count) return;
    app->outstanding = 1;
    send_line(app, controller_lines[app->next_line], controller_lengths[app->next_line]);
    app->next_line++;
}

// relay-serial: keeps a controller line for every app.
static void keep_controller_line(const char *line, size_t length) {
    if (controller_count == controller_capacity) {
        controller_capacity = controller_capacity ? controller_capacity * 2 : 256;
        controller_lines = realloc(controller_lines, controller_capacity * sizeof(char *));
        controller_lengths = realloc(controller_lengths, controller_capacity * sizeof(size_t));
    }
    controller_lines[controller_count] = malloc(length);
    memcpy(controller_lines[controller_count], line, length);
    controller_lengths[controller_count++] = length;
}

static void on_line(client_t *from, const char *line, size_t length) {
    if (!relay_mode) {
        send_line(from, line, length);
        return;
    }
    if (!from->introduced) {
        from->introduced = 1;
        if (length == 3 && memcmp(line, "app", 3) == 0 && app_count < MAX_APPS) {
            from->is_app = 1;
            from->next_line = controller_count;
            apps[app_count++] = from;
            return;
        }
    }
    if (from->is_app) {
        if (serial_mode) {
            from->outstanding = 0;
            send_next(from);
        }
        if (journal_fd >= 0) {
            hold_for_journal(line, length);
        } else if (controller) {
            send_line(controller, line, length);
        }
    } else {
        controller = from;
        if (serial_mode) {
            keep_controller_line(line, length);
            for (int i = 0; i < app_count; i++) send_next(apps[i]);
            return;
        }
        for (int i = 0; i < app_count; i++) send_line(apps[i], line, length);
    }
}

static void on_close(uv_handle_t *handle) {
    client_t *client = handle->data;
    free(client->partial);
    free(client);
}

static void drop_client(client_t *client) {
    if (client->is_app) {
        for (int i = 0; i < app_count; i++) {
            if (apps[i] == client) { apps[i] = apps[--app_count]; break; }
        }
    }
    if (controller == client) controller = NULL;
    uv_close((uv_handle_t *)&client->pipe, on_close);
}

static void on_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buffer) {
    (void)handle; (void)suggested;
    *buffer = uv_buf_init(read_buffer, sizeof(read_buffer));
}

static void on_read(uv_stream_t *stream, ssize_t count, const uv_buf_t *buffer) {
    client_t *client = stream->data;
    if (count < 0) { drop_client(client); return; }
    const char *cursor = buffer->base;
    const char *end = buffer->base + count;
    while (cursor < end) {
        const char *newline = memchr(cursor, '\n', (size_t)(end - cursor));
        if (!newline) {
            size_t tail = (size_t)(end - cursor);
            if (client->partial_length + tail > MAX_LINE) { drop_client(client); return; }
            client->partial = realloc(client->partial, client->partial_length + tail);
            memcpy(client->partial + client->partial_length, cursor, tail);
            client->partial_length += tail;
            return;
        }
        if (client->partial_length) {
            size_t piece = (size_t)(newline - cursor);
            client->partial = realloc(client->partial, client->partial_length + piece);
            memcpy(client->partial + client->partial_length, cursor, piece);
            on_line(client, client->partial, client->partial_length + piece);
            client->partial_length = 0;
        } else {
            on_line(client, cursor, (size_t)(newline - cursor));
        }
        cursor = newline + 1;
    }
}

static void on_connection(uv_stream_t *listener, int status) {
    if (status < 0) return;
    client_t *client = calloc(1, sizeof(client_t));
    uv_pipe_init(loop, &client->pipe, 0);
    client->pipe.data = client;
    if (uv_accept(listener, (uv_stream_t *)&client->pipe) != 0) {
        uv_close((uv_handle_t *)&client->pipe, on_close);
        return;
    }
    uv_read_start((uv_stream_t *)&client->pipe, on_alloc, on_read);
}

static void close_walk(uv_handle_t *handle, void *argument) {
    (void)argument;
    if (!uv_is_closing(handle)) uv_close(handle, handle->data && handle != (uv_handle_t *)&server
                                                     && handle->type == UV_NAMED_PIPE ? on_close : NULL);
}

static void on_signal(uv_signal_t *watcher, int signal_number) {
    (void)watcher; (void)signal_number;
    uv_walk(loop, close_walk, NULL);
}

int main(int argc, char **argv) {
    serial_mode = argc == 4 && strcmp(argv[1], "relay-serial") == 0;
    if (argc < 3 || (strcmp(argv[1], "echo") != 0 && strcmp(argv[1], "relay") != 0 && !serial_mode)
        || argc > (strcmp(argv[1], "echo") == 0 ? 3 : 4)) {
        fprintf(stderr, "usage: %s echo PATH | relay PATH [JOURNAL] | relay-serial PATH JOURNAL\n", argv[0]);
        return 2;
    }
    relay_mode = strcmp(argv[1], "relay") == 0 || serial_mode;
    signal(SIGPIPE, SIG_IGN);
    loop = uv_default_loop();
    unlink(argv[2]);
    uv_pipe_init(loop, &server, 0);
    server.data = NULL;
    int status = uv_pipe_bind(&server, argv[2]);
    if (status == 0) status = uv_listen((uv_stream_t *)&server, 511, on_connection);
    if (status != 0) {
        fprintf(stderr, "baseline_server: %s\n", uv_strerror(status));
        return 1;
    }
    uv_signal_init(loop, &sigint_watcher);
    uv_signal_start(&sigint_watcher, on_signal, SIGINT);
    uv_signal_init(loop, &sigterm_watcher);
    uv_signal_start(&sigterm_watcher, on_signal, SIGTERM);
    sigint_watcher.data = sigterm_watcher.data = NULL;
    if (argc == 4) {
        journal_fd = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
        if (journal_fd < 0) { perror("baseline_server: journal"); return 1; }
        uv_prepare_init(loop, &turn_end);
        turn_end.data = NULL;
        uv_prepare_start(&turn_end, on_turn_end);
    }
    printf("listening on %s\n", argv[2]);
    fflush(stdout);
    uv_run(loop, UV_RUN_DEFAULT);
    unlink(argv[2]);
    return uv_loop_close(loop) == 0 ? 0 : 1;
}
