// libcurl's curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call;
// these typed wrappers are the only calls the Fetching module makes through them.
#include <curl/curl.h>

typedef size_t (*usefulmap_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*usefulmap_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                                curl_off_t upload_total, curl_off_t upload_now);

static inline CURLcode usefulmap_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode usefulmap_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode usefulmap_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode usefulmap_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode usefulmap_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}
static inline CURLcode usefulmap_curl_set_data_callback(CURL *handle, CURLoption option,
                                                        usefulmap_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode usefulmap_curl_set_progress_callback(CURL *handle, usefulmap_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode usefulmap_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode usefulmap_curl_get_pointer(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode usefulmap_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
