#ifndef PHOTOSYNC_CCURL_H
#define PHOTOSYNC_CCURL_H

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <stddef.h>

// libcurl, loaded on first use rather than at start-up.
//
// Linking libcurl makes the dynamic loader map and relocate it and its ~30 dependencies (TLS,
// Kerberos, LDAP, ...) in every process: about 5 ms, half of a query's run time, spent by commands
// that never make a request. Only `fetch` does, so it loads libcurl with dlopen instead.
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the typed
// wrappers below call them.

/// Loads libcurl.so.4 and runs curl_global_init, once per process (thread-safe). Returns 0 on
/// success; otherwise copies the reason into `error` (NUL-terminated) and returns -1, every time.
int ccurl_load(char *error, size_t capacity);

// The functions below may be called only after ccurl_load succeeded.
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
time_t ccurl_getdate(const char *text);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);

typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ccurl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                       curl_off_t ultotal, curl_off_t ulnow);

CURLcode ccurl_setopt_write_function(CURL *handle, ccurl_data_callback callback);
CURLcode ccurl_setopt_header_function(CURL *handle, ccurl_data_callback callback);
CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_callback callback);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

// The multi interface: one thread drives many transfers (image downloads).
CURLM *ccurl_multi_init(void);
void ccurl_multi_cleanup(CURLM *multi);
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode ccurl_multi_perform(CURLM *multi, int *running);
/// curl_multi_poll without extra descriptors: waits for activity or `timeout_ms`.
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms);
CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
/// The next finished transfer (CURLMSG_DONE) into `handle` and `result`: 1, or 0 when none is left.
int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);

#endif
