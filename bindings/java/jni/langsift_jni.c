/* JNI for org.langsift.LangSift over the C ABI (include/langsift.h).
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
