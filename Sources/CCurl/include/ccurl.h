#ifndef QUOTED_CCURL_H
#define QUOTED_CCURL_H

#include <curl/curl.h>

/* libcurl's curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
   call: these typed wrappers are the whole of this module. Each returns libcurl's code. */

typedef size_t (*quoted_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*quoted_curl_progress_callback)(void *context, curl_off_t download_total, curl_off_t download_now,
                                             curl_off_t upload_total, curl_off_t upload_now);

CURLcode quoted_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode quoted_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode quoted_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode quoted_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *list);
CURLcode quoted_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode quoted_curl_set_data_callback(CURL *handle, CURLoption option, quoted_curl_data_callback callback);
CURLcode quoted_curl_set_progress_callback(CURL *handle, quoted_curl_progress_callback callback);

CURLcode quoted_curl_get_long(CURL *handle, CURLINFO info, long *value);
CURLcode quoted_curl_get_string(CURL *handle, CURLINFO info, const char **value);
CURLcode quoted_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value);

#endif
