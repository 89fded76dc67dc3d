/* The machine-dependent part of the JNI header for Windows, for cross builds of egdb_jni.dll with
   MinGW-w64 on a machine whose JDK ships only its own platform's jni_md.h (include/linux). The
   JNI specification fixes these on Windows: jint is 32 bits and jlong 64 bits (long is 32 bits
   there, so Linux's definitions would be wrong), JNICALL is __stdcall (a no-op on x86_64). */
#ifndef EGDB_WIN32_JNI_MD_H
#define EGDB_WIN32_JNI_MD_H

#define JNIEXPORT __declspec(dllexport)
#define JNIIMPORT __declspec(dllimport)
#define JNICALL __stdcall

typedef long jint;
typedef long long jlong;
typedef signed char jbyte;

#endif
