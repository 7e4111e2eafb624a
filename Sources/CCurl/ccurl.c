#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    time_t (*getdate)(const char *text, const time_t *unused);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *fds, unsigned int count, int timeout_ms, int *ready);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[256] = "libcurl not loaded";
static int loaded;

static int resolve(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(load_error, sizeof load_error, "libcurl has no %s", name);
    return 0;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "cannot load libcurl: %s", reason ? reason : "libcurl.so.4 not found");
        return;
    }
    int ok = resolve(library, "curl_global_init", (void **)&curl.global_init)
        && resolve(library, "curl_easy_init", (void **)&curl.easy_init)
        && resolve(library, "curl_easy_cleanup", (void **)&curl.easy_cleanup)
        && resolve(library, "curl_easy_reset", (void **)&curl.easy_reset)
        && resolve(library, "curl_easy_perform", (void **)&curl.easy_perform)
        && resolve(library, "curl_easy_strerror", (void **)&curl.easy_strerror)
        && resolve(library, "curl_getdate", (void **)&curl.getdate)
        && resolve(library, "curl_easy_setopt", (void **)&curl.easy_setopt)
        && resolve(library, "curl_easy_getinfo", (void **)&curl.easy_getinfo)
        && resolve(library, "curl_multi_init", (void **)&curl.multi_init)
        && resolve(library, "curl_multi_cleanup", (void **)&curl.multi_cleanup)
        && resolve(library, "curl_multi_add_handle", (void **)&curl.multi_add_handle)
        && resolve(library, "curl_multi_remove_handle", (void **)&curl.multi_remove_handle)
        && resolve(library, "curl_multi_perform", (void **)&curl.multi_perform)
        && resolve(library, "curl_multi_poll", (void **)&curl.multi_poll)
        && resolve(library, "curl_multi_info_read", (void **)&curl.multi_info_read)
        && resolve(library, "curl_multi_setopt", (void **)&curl.multi_setopt);
    if (!ok) return;
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "curl_global_init failed: %s", curl.easy_strerror(code));
        return;
    }
    loaded = 1;
}

int ccurl_load(char *error, size_t capacity) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (capacity) snprintf(error, capacity, "%s", load_error);
    return -1;
}

CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
time_t ccurl_getdate(const char *text) { return curl.getdate(text, NULL); }

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl.easy_setopt(handle, option, value); }
CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl.easy_getinfo(handle, info, value); }

CURLM *ccurl_multi_init(void) { return curl.multi_init(); }
void ccurl_multi_cleanup(CURLM *multi) { curl.multi_cleanup(multi); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.multi_remove_handle(multi, handle); }
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms) {
    int ready = 0;
    return curl.multi_poll(multi, NULL, 0, timeout_ms, &ready);
}
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) { return curl.multi_setopt(multi, option, value); }

int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = curl.multi_info_read(multi, &left)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        *handle = message->easy_handle;
        *result = message->data.result;
        return 1;
    }
    return 0;
}
