/*
 * The benchmark's feed server: serves the pages of a feed cache (Benchmarks/feedcache.py) on
 * 127.0.0.1, already gzipped, byte for byte what `Fixtures/serve_feed.py --generate N` sends.
 *
 * Why C: the machines have two cores, shared by photosync's two threads and the server. A Python
 * server spent ~1 ms of CPU a request (0.2 s per 100k-photo import), which photosync's timings
 * then paid for; this one spends a few microseconds, so the benchmark measures photosync.
 *
 *   feed_server --dir Benchmarks/.work/cache/feed-10000-1-500 --log requests.log
 *
 * Prints its port on the first stdout line. Serves each connection on a thread of its own (photosync
 * downloads one page at a time, but asks licenses.getInfo on another connection), HTTP/1.1 keep-alive. Appends "<CLOCK_MONOTONIC seconds> <page>" to --log
 * for every request (the import's per-chunk throughput). A client that does not accept gzip gets
 * 406, a per_page other than the cache's 400, a page past the cache 404. Stops on SIGTERM.
 * flickr.photos.licenses.getInfo gets the cache's licenses.json.gz (a metadata feed's; 404 without).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static FILE *request_log;
static long per_page;

static void die(const char *what) { perror(what); exit(1); }

/* The integer value of query parameter `name` in `query` (up to the first space), or `fallback`. */
static long parameter(const char *query, const char *name, long fallback) {
    size_t n = strlen(name);
    for (const char *p = query; p && *p && *p != ' '; p = strpbrk(p, "& ")) {
        if (*p == '&') p++;
        if (strncmp(p, name, n) == 0 && p[n] == '=') {
            long value = strtol(p + n + 1, NULL, 10);
            return value >= 1 ? value : fallback;
        }
    }
    return fallback;
}

static int send_all(int fd, const char *data, size_t size) {
    while (size > 0) {
        ssize_t sent = send(fd, data, size, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return -1;
        data += sent;
        size -= (size_t)sent;
    }
    return 0;
}

static int send_status(int fd, const char *status) {
    char head[256];
    int n = snprintf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n\r\n%s",
                     status, strlen(status), status);
    return send_all(fd, head, (size_t)n);
}

/* Answers one request (its head is in `request`); returns -1 when the connection is gone. */
static int answer(int fd, const char *request) {
    const char *query = strchr(request, '?');
    const char *line_end = strstr(request, "\r\n");
    const char *licenses = strstr(request, "method=flickr.photos.licenses.getInfo");
    int wants_licenses = licenses && (!line_end || licenses < line_end);
    long page = parameter(query ? query + 1 : NULL, "page", 1);
    long asked = parameter(query ? query + 1 : NULL, "per_page", 100);
    if (!strcasestr(request, "\r\nAccept-Encoding:") || !strstr(strcasestr(request, "\r\nAccept-Encoding:"), "gzip"))
        return send_status(fd, "406 Not Acceptable");
    char path[4096];
    if (wants_licenses) {
        snprintf(path, sizeof path, "%s/licenses.json.gz", dir);
    } else {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        fprintf(request_log, "%.6f %ld\n", (double)now.tv_sec + now.tv_nsec / 1e9, page);
        fflush(request_log);
        if ((asked < 500 ? asked : 500) != per_page) return send_status(fd, "400 Bad Request");
        snprintf(path, sizeof path, "%s/page-%05ld.json.gz", dir, page);
    }
    int file = open(path, O_RDONLY);
    if (file < 0) return send_status(fd, "404 Not Found");
    struct stat info;
    fstat(file, &info);
    char *body = malloc((size_t)info.st_size);
    ssize_t got = body ? read(file, body, (size_t)info.st_size) : -1;
    close(file);
    if (got != info.st_size) die(path);
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Encoding: gzip\r\n"
                     "Content-Length: %lld\r\n\r\n", (long long)info.st_size);
    int result = send_all(fd, head, (size_t)n) == 0 ? send_all(fd, body, (size_t)info.st_size) : -1;
    free(body);
    return result;
}

/* Serves requests on one connection until the client closes it. */
static void serve(int fd) {
    char buffer[16384];
    size_t used = 0;
    for (;;) {
        char *end;
        while (!(end = memmem(buffer, used, "\r\n\r\n", 4))) {
            if (used == sizeof buffer - 1) return;
            ssize_t got = recv(fd, buffer + used, sizeof buffer - 1 - used, 0);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) return;
            used += (size_t)got;
        }
        *end = '\0';
        if (answer(fd, buffer) < 0) return;
        size_t consumed = (size_t)(end + 4 - buffer);
        memmove(buffer, buffer + consumed, used - consumed);
        used -= consumed;
    }
}

static void *connection(void *fd) {
    serve((int)(intptr_t)fd);
    close((int)(intptr_t)fd);
    return NULL;
}

int main(int argc, char **argv) {
    const char *log_path = NULL;
    int port = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--dir") == 0) dir = argv[i + 1];
        else if (strcmp(argv[i], "--log") == 0) log_path = argv[i + 1];
        else if (strcmp(argv[i], "--port") == 0) port = atoi(argv[i + 1]);
    }
    if (!dir || !log_path) { fprintf(stderr, "usage: feed_server --dir CACHE --log FILE [--port N]\n"); return 64; }
    char done[4096];
    snprintf(done, sizeof done, "%s/DONE", dir);
    FILE *meta = fopen(done, "r");
    long photos, seed, pages;
    if (!meta || fscanf(meta, "%ld %ld %ld %ld", &photos, &seed, &per_page, &pages) != 4) die(done);
    fclose(meta);
    if (!(request_log = fopen(log_path, "a"))) die(log_path);

    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 16) < 0) die("bind");
    socklen_t size = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &size);
    printf("%d\n", ntohs(address.sin_port));
    fflush(stdout);
    for (;;) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) { if (errno == EINTR) continue; die("accept"); }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        pthread_t thread;
        if (pthread_create(&thread, NULL, connection, (void *)(intptr_t)fd) != 0) die("pthread_create");
        pthread_detach(thread);
    }
}
