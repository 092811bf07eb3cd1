/* JNI for org.langsift.LangSift and org.langsift.LanguageFilter over the C ABI (include/langsift.h).
 *
 * Strings arrive as NUL-terminated standard UTF-8 byte arrays (made in Java), not through
 * GetStringUTFChars, whose "modified UTF-8" encodes NUL and supplementary characters differently.
 * Byte arrays are read with Get<Type>ArrayElements and released with JNI_ABORT (never written
 * back), not with the critical variants: detection may take milliseconds and must not hold up the
 * garbage collector. Classes and method IDs are looked up once in JNI_OnLoad and kept as global
 * references: the JVM loads a native library for one class loader only. */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "langsift.h"

static jclass g_language, g_detection, g_url_result, g_string, g_illegal_argument, g_oom, g_illegal_state;
static jmethodID g_language_ctor, g_detection_ctor, g_url_result_ctor;

static jclass global_class(JNIEnv* env, const char* name) {
  jclass local = (*env)->FindClass(env, name);
  if (!local) return NULL;
  jclass global = (jclass)(*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  return global;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void* reserved) {
  (void)reserved;
  JNIEnv* env = NULL;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  g_language = global_class(env, "org/langsift/Language");
  g_detection = global_class(env, "org/langsift/Detection");
  g_url_result = global_class(env, "org/langsift/UrlResult");
  g_string = global_class(env, "java/lang/String");
  g_illegal_argument = global_class(env, "java/lang/IllegalArgumentException");
  g_oom = global_class(env, "java/lang/OutOfMemoryError");
  g_illegal_state = global_class(env, "java/lang/IllegalStateException");
  if (!g_language || !g_detection || !g_url_result || !g_string || !g_illegal_argument || !g_oom || !g_illegal_state)
    return JNI_ERR;
  g_language_ctor = (*env)->GetMethodID(env, g_language, "<init>", "(Ljava/lang/String;IJF)V");
  g_detection_ctor = (*env)->GetMethodID(env, g_detection, "<init>",
                                         "([Lorg/langsift/Language;Ljava/lang/String;JFZZZLjava/lang/String;"
                                         "Ljava/lang/String;Ljava/lang/String;)V");
  g_url_result_ctor =
      (*env)->GetMethodID(env, g_url_result, "<init>", "([Ljava/lang/String;[FLjava/lang/String;Ljava/lang/String;)V");
  if (!g_language_ctor || !g_detection_ctor || !g_url_result_ctor) return JNI_ERR;
  return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM* vm, void* reserved) {
  (void)reserved;
  JNIEnv* env = NULL;
  if ((*vm)->GetEnv(vm, (void**)&env, JNI_VERSION_1_8) != JNI_OK) return;
  jclass* all[] = {&g_language, &g_detection, &g_url_result, &g_string, &g_illegal_argument, &g_oom, &g_illegal_state};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    if (*all[i]) {
      (*env)->DeleteGlobalRef(env, *all[i]);
      *all[i] = NULL;
    }
}

/* A NUL-terminated byte[] (or null) as a malloc'd C string; *ok = 0 after throwing OOM. */
static char* c_string(JNIEnv* env, jbyteArray a, int* ok) {
  *ok = 1;
  if (!a) return NULL;
  jsize n = (*env)->GetArrayLength(env, a);
  char* s = malloc((size_t)n + 1);
  if (!s) {
    (*env)->ThrowNew(env, g_oom, "langsift: out of memory");
    *ok = 0;
    return NULL;
  }
  (*env)->GetByteArrayRegion(env, a, 0, n, (jbyte*)s);
  s[n] = '\0';
  return s;
}

static void throw_status(JNIEnv* env, langsift_status st) {
  if (st == LANGSIFT_OUT_OF_MEMORY)
    (*env)->ThrowNew(env, g_oom, "langsift: out of memory");
  else
    (*env)->ThrowNew(env, g_illegal_argument, langsift_status_name(st));
}

static jobject make_detection(JNIEnv* env, const langsift_result* r) {
  jobjectArray langs = (*env)->NewObjectArray(env, r->count, g_language, NULL);
  if (!langs) return NULL;
  for (int i = 0; i < r->count; ++i) {
    jstring code = (*env)->NewStringUTF(env, r->languages[i].code); /* ASCII */
    if (!code) return NULL;
    jobject l = (*env)->NewObject(env, g_language, g_language_ctor, code, (jint)r->languages[i].percent,
                                  (jlong)r->languages[i].bytes, (jfloat)r->languages[i].score);
    if (!l) return NULL;
    (*env)->SetObjectArrayElement(env, langs, i, l);
    (*env)->DeleteLocalRef(env, l);
    (*env)->DeleteLocalRef(env, code);
  }
  jstring language = (*env)->NewStringUTF(env, r->language);
  jstring encoding = (*env)->NewStringUTF(env, r->encoding);
  jstring source = (*env)->NewStringUTF(env, r->encoding_source);
  jstring status = (*env)->NewStringUTF(env, langsift_status_name(r->status));
  if (!language || !encoding || !source || !status) return NULL;
  return (*env)->NewObject(env, g_detection, g_detection_ctor, langs, language, (jlong)r->text_bytes,
                           (jfloat)r->confidence, (jboolean)(r->reliable != 0), (jboolean)(r->is_short != 0),
                           (jboolean)(r->is_html != 0), encoding, source, status);
}

JNIEXPORT jstring JNICALL Java_org_langsift_LangSift_nativeVersion(JNIEnv* env, jclass cls) {
  (void)cls;
  return (*env)->NewStringUTF(env, langsift_version());
}

JNIEXPORT jlong JNICALL Java_org_langsift_LangSift_nativeOpen(JNIEnv* env, jclass cls, jbyteArray path_bytes) {
  (void)cls;
  int ok = 0;
  char* path = c_string(env, path_bytes, &ok);
  if (!ok) return 0;
  langsift_detector* d = NULL;
  char msg[512] = "";
  langsift_status st = langsift_detector_new(path, &d, msg, sizeof msg);
  free(path);
  if (st != LANGSIFT_OK) {
    if (st == LANGSIFT_OUT_OF_MEMORY)
      (*env)->ThrowNew(env, g_oom, "langsift: out of memory");
    else
      (*env)->ThrowNew(env, g_illegal_argument, msg[0] ? msg : langsift_status_name(st));
    return 0;
  }
  return (jlong)(intptr_t)d;
}

JNIEXPORT void JNICALL Java_org_langsift_LangSift_nativeClose(JNIEnv* env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  langsift_detector_free((langsift_detector*)(intptr_t)handle);
}

JNIEXPORT jobject JNICALL Java_org_langsift_LangSift_nativeDetect(JNIEnv* env, jclass cls, jlong handle,
                                                                  jbyteArray body, jbyteArray content_type,
                                                                  jbyteArray url, jbyteArray content_language) {
  (void)cls;
  if (!handle) {
    (*env)->ThrowNew(env, g_illegal_state, "LangSift is closed");
    return NULL;
  }
  int ok1 = 0, ok2 = 0, ok3 = 0;
  char* ct = c_string(env, content_type, &ok1);
  char* u = ok1 ? c_string(env, url, &ok2) : NULL;
  char* cl = ok2 ? c_string(env, content_language, &ok3) : NULL;
  jobject result = NULL;
  if (ok1 && ok2 && ok3) {
    langsift_page_options o;
    memset(&o, 0, sizeof o);
    o.content_type = ct;
    o.url = u;
    o.content_language = cl;
    jsize n = (*env)->GetArrayLength(env, body);
    jbyte* bytes = (*env)->GetByteArrayElements(env, body, NULL);
    if (bytes) {
      langsift_result r;
      langsift_status st = langsift_detect((const langsift_detector*)(intptr_t)handle, bytes, (size_t)n, &o, &r);
      (*env)->ReleaseByteArrayElements(env, body, bytes, JNI_ABORT);
      if (st == LANGSIFT_OK)
        result = make_detection(env, &r);
      else
        throw_status(env, st);
    }
  }
  free(ct);
  free(u);
  free(cl);
  return result;
}

JNIEXPORT jobject JNICALL Java_org_langsift_LangSift_nativeDetectText(JNIEnv* env, jclass cls, jlong handle,
                                                                      jbyteArray utf8) {
  (void)cls;
  if (!handle) {
    (*env)->ThrowNew(env, g_illegal_state, "LangSift is closed");
    return NULL;
  }
  jsize n = (*env)->GetArrayLength(env, utf8);
  jbyte* bytes = (*env)->GetByteArrayElements(env, utf8, NULL);
  if (!bytes) return NULL; /* OutOfMemoryError pending */
  langsift_result r;
  langsift_status st = langsift_detect_text((const langsift_detector*)(intptr_t)handle, (const char*)bytes, (size_t)n, &r);
  (*env)->ReleaseByteArrayElements(env, utf8, bytes, JNI_ABORT);
  if (st != LANGSIFT_OK) {
    throw_status(env, st);
    return NULL;
  }
  return make_detection(env, &r);
}

JNIEXPORT jobject JNICALL Java_org_langsift_LangSift_nativeClassifyUrl(JNIEnv* env, jclass cls, jlong handle,
                                                                       jbyteArray url, jbyteArray country) {
  (void)cls;
  if (!handle) {
    (*env)->ThrowNew(env, g_illegal_state, "LangSift is closed");
    return NULL;
  }
  int ok = 0;
  char* cc = c_string(env, country, &ok);
  if (!ok) return NULL;
  jsize n = (*env)->GetArrayLength(env, url);
  jbyte* bytes = (*env)->GetByteArrayElements(env, url, NULL);
  if (!bytes) {
    free(cc);
    return NULL;
  }
  langsift_url_result r;
  langsift_status st = langsift_url_classify((const char*)bytes, (size_t)n, cc, &r);
  (*env)->ReleaseByteArrayElements(env, url, bytes, JNI_ABORT);
  free(cc);
  if (st != LANGSIFT_OK) {
    throw_status(env, st);
    return NULL;
  }
  jobjectArray codes = (*env)->NewObjectArray(env, r.count, g_string, NULL);
  jfloatArray scores = (*env)->NewFloatArray(env, r.count);
  if (!codes || !scores) return NULL;
  for (int i = 0; i < r.count; ++i) {
    jstring c = (*env)->NewStringUTF(env, r.languages[i].code);
    if (!c) return NULL;
    (*env)->SetObjectArrayElement(env, codes, i, c);
    (*env)->DeleteLocalRef(env, c);
    jfloat s = r.languages[i].score;
    (*env)->SetFloatArrayRegion(env, scores, i, 1, &s);
  }
  jstring language = (*env)->NewStringUTF(env, r.language);
  jstring status = (*env)->NewStringUTF(env, langsift_status_name(r.status));
  if (!language || !status) return NULL;
  return (*env)->NewObject(env, g_url_result, g_url_result_ctor, codes, scores, language, status);
}

/* ---- org.langsift.LanguageFilter: the library's filter (langsift_filter_*) ------------------- */

static void throw_message(JNIEnv* env, langsift_status st, const char* msg) {
  if (st == LANGSIFT_OUT_OF_MEMORY)
    (*env)->ThrowNew(env, g_oom, "langsift: out of memory");
  else
    (*env)->ThrowNew(env, g_illegal_argument, msg[0] ? msg : langsift_status_name(st));
}

/* A made filter as the Java handle, or 0 with an exception thrown (one may be pending already). */
static jlong filter_handle(JNIEnv* env, langsift_status st, langsift_filter* f, const char* msg) {
  if ((*env)->ExceptionCheck(env)) { /* thrown by the configuration's get, or OOM on its value */
    langsift_filter_free(f);
    return 0;
  }
  if (st != LANGSIFT_OK) {
    throw_message(env, st, msg);
    return 0;
  }
  return (jlong)(intptr_t)f;
}

JNIEXPORT jlong JNICALL Java_org_langsift_LanguageFilter_nativeNew(JNIEnv* env, jclass cls, jbyteArray labels,
                                                                   jlong min_bytes, jlong max_bytes, jint min_percent,
                                                                   jfloat min_probability) {
  (void)cls;
  int ok = 0;
  char* l = c_string(env, labels, &ok);
  if (!ok) return 0;
  langsift_filter_settings s;
  langsift_filter_default_settings(&s);
  s.labels = l;
  s.min_bytes = min_bytes;
  s.max_bytes = max_bytes;
  s.min_percent = min_percent;
  s.min_probability = min_probability;
  langsift_filter* f = NULL;
  char msg[512] = "";
  langsift_status st = langsift_filter_new(&s, NULL, &f, msg, sizeof msg);
  free(l);
  return filter_handle(env, st, f, msg);
}

/* The configuration's get, called by langsift_filter_from_config: LanguageFilter.configValue(get,
 * key) as a C string, kept until the next call. NULL for a missing key, and once Java has thrown. */
typedef struct config_context {
  JNIEnv* env;
  jclass cls;
  jmethodID value;
  jobject get;
  char* last;
} config_context;

static const char* config_value(void* context, const char* key) {
  config_context* c = (config_context*)context;
  JNIEnv* env = c->env;
  free(c->last);
  c->last = NULL;
  if ((*env)->ExceptionCheck(env)) return NULL;
  jstring k = (*env)->NewStringUTF(env, key); /* the keys are ASCII */
  if (!k) return NULL;
  jbyteArray v = (jbyteArray)(*env)->CallStaticObjectMethod(env, c->cls, c->value, c->get, k);
  (*env)->DeleteLocalRef(env, k);
  if ((*env)->ExceptionCheck(env) || !v) return NULL;
  int ok = 0;
  c->last = c_string(env, v, &ok);
  (*env)->DeleteLocalRef(env, v);
  return c->last;
}

JNIEXPORT jlong JNICALL Java_org_langsift_LanguageFilter_nativeFromConfig(JNIEnv* env, jclass cls, jobject get) {
  config_context c = {env, cls, NULL, get, NULL};
  c.value = (*env)->GetStaticMethodID(env, cls, "configValue", "(Ljava/util/function/Function;Ljava/lang/String;)[B");
  if (!c.value) return 0; /* NoSuchMethodError pending */
  langsift_filter* f = NULL;
  char msg[512] = "";
  langsift_status st = langsift_filter_from_config(config_value, &c, NULL, &f, msg, sizeof msg);
  free(c.last);
  return filter_handle(env, st, f, msg);
}

JNIEXPORT void JNICALL Java_org_langsift_LanguageFilter_nativeFree(JNIEnv* env, jclass cls, jlong handle) {
  (void)env;
  (void)cls;
  langsift_filter_free((langsift_filter*)(intptr_t)handle);
}

JNIEXPORT jobjectArray JNICALL Java_org_langsift_LanguageFilter_nativeLabels(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  const langsift_filter* f = (const langsift_filter*)(intptr_t)handle;
  langsift_filter_settings s;
  if (langsift_filter_get_settings(f, &s) != LANGSIFT_OK || !s.labels) return NULL;
  size_t n = langsift_filter_label_count(f);
  jobjectArray out = (*env)->NewObjectArray(env, (jsize)n, g_string, NULL);
  if (!out) return NULL;
  for (size_t i = 0; i < n; ++i) {
    jstring l = (*env)->NewStringUTF(env, langsift_filter_label(f, i)); /* codes that name languages: ASCII */
    if (!l) return NULL;
    (*env)->SetObjectArrayElement(env, out, (jsize)i, l);
    (*env)->DeleteLocalRef(env, l);
  }
  return out;
}

JNIEXPORT jlongArray JNICALL Java_org_langsift_LanguageFilter_nativeNumbers(JNIEnv* env, jclass cls, jlong handle) {
  (void)cls;
  langsift_filter_settings s;
  langsift_filter_default_settings(&s);
  langsift_filter_get_settings((const langsift_filter*)(intptr_t)handle, &s);
  int32_t bits = 0;
  memcpy(&bits, &s.min_probability, sizeof bits); /* Float.intBitsToFloat in Java */
  jlong v[4] = {(jlong)s.min_bytes, (jlong)s.max_bytes, (jlong)s.min_percent, (jlong)bits};
  jlongArray out = (*env)->NewLongArray(env, 4);
  if (out) (*env)->SetLongArrayRegion(env, out, 0, 4, v);
  return out;
}

/* A language of a Java Detection as the C ABI's (its code cut to the array, as langsift_detect's are). */
static void fill_language(JNIEnv* env, jbyteArray code, jint percent, jlong bytes, langsift_language* l) {
  memset(l, 0, sizeof *l);
  jsize n = code ? (*env)->GetArrayLength(env, code) : 0;
  if (n > (jsize)sizeof l->code - 1) n = (jsize)sizeof l->code - 1;
  if (n > 0) (*env)->GetByteArrayRegion(env, code, 0, n, (jbyte*)l->code);
  l->percent = percent;
  l->bytes = bytes < 0 ? 0 : (size_t)bytes;
}

JNIEXPORT jboolean JNICALL Java_org_langsift_LanguageFilter_nativeKeep(JNIEnv* env, jclass cls, jlong handle,
                                                                       jobjectArray codes, jintArray percents,
                                                                       jlongArray bytes, jfloat confidence) {
  (void)cls;
  langsift_result r;
  memset(&r, 0, sizeof r);
  jsize n = (*env)->GetArrayLength(env, codes);
  if (n > 3) n = 3;
  for (jsize i = 0; i < n; ++i) {
    jint p = 0;
    jlong b = 0;
    (*env)->GetIntArrayRegion(env, percents, i, 1, &p);
    (*env)->GetLongArrayRegion(env, bytes, i, 1, &b);
    jbyteArray code = (jbyteArray)(*env)->GetObjectArrayElement(env, codes, i);
    fill_language(env, code, p, b, &r.languages[i]);
    (*env)->DeleteLocalRef(env, code);
  }
  r.count = (int)n;
  r.confidence = confidence;
  int keep = 0;
  langsift_filter_keep((const langsift_filter*)(intptr_t)handle, &r, &keep);
  return keep ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jboolean JNICALL Java_org_langsift_LanguageFilter_nativePasses(JNIEnv* env, jclass cls, jlong handle,
                                                                         jbyteArray code, jint percent, jlong bytes) {
  (void)cls;
  langsift_language l;
  fill_language(env, code, percent, bytes, &l);
  int passes = 0;
  langsift_filter_passes((const langsift_filter*)(intptr_t)handle, &l, &passes);
  return passes ? JNI_TRUE : JNI_FALSE;
}
