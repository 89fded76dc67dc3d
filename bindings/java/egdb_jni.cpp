// libegdb_jni: the native methods of egdb.Native (java/src/main/java/egdb/Native.java). Each one
// wraps one function of the flat C ABI (capi/egdb.h) and nothing else. A negative C return code
// becomes a Java exception thrown right here, with the message of egdb_last_error read in the
// same native call, so another thread cannot overwrite it in between.
//
// Positions cross as three longs (black, white, king); arrays of positions as long[3 * n], which
// is the memory layout of EgdbPosition[n].
#include <jni.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "capi/egdb.h"

namespace {

JavaVM* g_vm = nullptr;

// The exception class for a C error code (see egdb.EgdbException and its subclasses).
const char* exception_class(int code) {
    switch (code) {
    case EGDB_FEN_ERROR:
        return "egdb/FenException";
    case EGDB_LOOKUP_NOT_POSSIBLE:
    case EGDB_SUBDB_UNAVAILABLE:
    case EGDB_NOT_WLD_TYPE:
    case EGDB_NOT_DISTANCE_TYPE:
        return "egdb/MissingTableException";
    case EGDB_BAD_ARGUMENT:
    case EGDB_NULL_ARGUMENT:
    case EGDB_BUFFER_TOO_SMALL:
        return "egdb/InvalidArgumentException";
    case EGDB_CANCELLED:
        return "egdb/CancelledException";
    default:
        return "egdb/DatabaseException";
    }
}

// Throws the Java exception for a negative code (the caller returns right after).
void throw_error(JNIEnv* env, int code, int handle) {
    std::string message = handle >= 0 ? egdb_last_error(handle) : "";
    if (message.empty()) message = egdb_last_error(-1);
    if (message.empty()) message = "egdb error " + std::to_string(code);
    jclass cls = env->FindClass(exception_class(code));
    if (cls == nullptr) return;  // NoClassDefFoundError is pending
    jmethodID ctor = env->GetMethodID(cls, "<init>", "(Ljava/lang/String;I)V");
    if (ctor == nullptr) return;
    jstring text = env->NewStringUTF(message.c_str());
    if (text == nullptr) return;
    auto* exc = static_cast<jthrowable>(env->NewObject(cls, ctor, text, static_cast<jint>(code)));
    if (exc != nullptr) env->Throw(exc);
}

// True (and an exception pending) when `rc` is an error code.
bool failed(JNIEnv* env, int rc, int handle) {
    if (rc >= 0) return false;
    throw_error(env, rc, handle);
    return true;
}

// A Java string as a NUL-terminated UTF-8 std::string (FEN and paths are ASCII in practice).
std::string to_string(JNIEnv* env, jstring s) {
    if (s == nullptr) return {};
    const char* chars = env->GetStringUTFChars(s, nullptr);
    std::string out = chars != nullptr ? chars : "";
    if (chars != nullptr) env->ReleaseStringUTFChars(s, chars);
    return out;
}

EgdbPosition position(jlong black, jlong white, jlong king) {
    return EgdbPosition{static_cast<std::uint64_t>(black), static_cast<std::uint64_t>(white),
                        static_cast<std::uint64_t>(king)};
}

jlongArray boards_array(JNIEnv* env, const EgdbPosition* positions, int count) {
    jlongArray out = env->NewLongArray(3 * count);
    if (out == nullptr) return nullptr;
    std::vector<jlong> flat(static_cast<std::size_t>(3 * count));
    for (int i = 0; i < count; ++i) {
        flat[static_cast<std::size_t>(3 * i)] = static_cast<jlong>(positions[i].black);
        flat[static_cast<std::size_t>(3 * i + 1)] = static_cast<jlong>(positions[i].white);
        flat[static_cast<std::size_t>(3 * i + 2)] = static_cast<jlong>(positions[i].king);
    }
    env->SetLongArrayRegion(out, 0, 3 * count, flat.data());
    return out;
}

jobjectArray string_array(JNIEnv* env, const std::vector<std::string>& strings) {
    jclass string_class = env->FindClass("java/lang/String");
    if (string_class == nullptr) return nullptr;
    jobjectArray out = env->NewObjectArray(static_cast<jsize>(strings.size()), string_class, nullptr);
    if (out == nullptr) return nullptr;
    for (std::size_t i = 0; i < strings.size(); ++i) {
        jstring s = env->NewStringUTF(strings[i].c_str());
        if (s == nullptr) return nullptr;
        env->SetObjectArrayElement(out, static_cast<jsize>(i), s);
        env->DeleteLocalRef(s);
    }
    return out;
}

// A Java egdb.ProgressListener behind the C progress callback. The C library may call it from
// its own threads, which are attached to the JVM for the call. An exception thrown by the
// listener (or a `false` return) cancels the job; the exception is rethrown on the calling thread.
struct Progress {
    jobject listener;  // global reference, or nullptr
    jthrowable error = nullptr;  // global reference to what the listener threw

    static int EGDB_CALL call(void* user, const char* what, std::int64_t done, std::int64_t total) {
        auto* self = static_cast<Progress*>(user);
        if (self->listener == nullptr) return 0;
        if (self->error != nullptr) return 1;
        JNIEnv* env = nullptr;
        bool attached = false;
        if (g_vm->GetEnv(reinterpret_cast<void**>(&env), JNI_VERSION_1_8) == JNI_EDETACHED) {
            if (g_vm->AttachCurrentThread(reinterpret_cast<void**>(&env), nullptr) != JNI_OK) return 1;
            attached = true;
        }
        int result = 0;
        jclass cls = env->GetObjectClass(self->listener);
        jmethodID method = env->GetMethodID(cls, "progress", "(Ljava/lang/String;JJ)Z");
        jstring text = env->NewStringUTF(what != nullptr ? what : "");
        const jboolean go_on = method != nullptr && text != nullptr
                                   ? env->CallBooleanMethod(self->listener, method, text, static_cast<jlong>(done),
                                                            static_cast<jlong>(total))
                                   : JNI_FALSE;
        if (env->ExceptionCheck()) {
            jthrowable thrown = env->ExceptionOccurred();
            env->ExceptionClear();
            self->error = static_cast<jthrowable>(env->NewGlobalRef(thrown));
            result = 1;
        } else if (go_on == JNI_FALSE) {
            result = 1;
        }
        if (text != nullptr) env->DeleteLocalRef(text);
        env->DeleteLocalRef(cls);
        if (attached) g_vm->DetachCurrentThread();
        return result;
    }

    // After the C call: rethrow the listener's exception, else throw for an error code.
    // Returns true when an exception is pending.
    bool finish(JNIEnv* env, int rc, int handle) {
        if (listener != nullptr) env->DeleteGlobalRef(listener);
        if (error != nullptr) {
            env->Throw(static_cast<jthrowable>(env->NewLocalRef(error)));
            env->DeleteGlobalRef(error);
            return true;
        }
        return failed(env, rc, handle);
    }
};

Progress make_progress(JNIEnv* env, jobject listener) {
    return Progress{listener != nullptr ? env->NewGlobalRef(listener) : nullptr};
}

}  // namespace

extern "C" {

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* vm, void*) {
    g_vm = vm;
    return JNI_VERSION_1_8;
}

JNIEXPORT jstring JNICALL Java_egdb_Native_version(JNIEnv* env, jclass) { return env->NewStringUTF(egdb_version()); }

// --- positions --------------------------------------------------------------------------------

// {black, white, king, color}
JNIEXPORT jlongArray JNICALL Java_egdb_Native_fenToPosition(JNIEnv* env, jclass, jstring fen) {
    const std::string text = to_string(env, fen);
    EgdbPosition p{};
    int color = 0;
    if (failed(env, fentoposition(text.c_str(), &p, &color), -1)) return nullptr;
    const std::array<jlong, 4> out{static_cast<jlong>(p.black), static_cast<jlong>(p.white), static_cast<jlong>(p.king),
                                   color};
    jlongArray result = env->NewLongArray(4);
    if (result != nullptr) env->SetLongArrayRegion(result, 0, 4, out.data());
    return result;
}

JNIEXPORT jstring JNICALL Java_egdb_Native_positionToFen(JNIEnv* env, jclass, jlong black, jlong white, jlong king,
                                                         jint color) {
    const EgdbPosition p = position(black, white, king);
    std::array<char, EGDB_MAXFENLEN> fen{};
    if (failed(env, positiontofen(&p, color, fen.data()), -1)) return nullptr;
    return env->NewStringUTF(fen.data());
}

// Successors as long[3 * n] (get_movelist).
JNIEXPORT jlongArray JNICALL Java_egdb_Native_successors(JNIEnv* env, jclass, jlong black, jlong white, jlong king,
                                                         jint color) {
    const EgdbPosition p = position(black, white, king);
    std::array<EgdbPosition, EGDB_MAXMOVES> list{};
    const int n = get_movelist(&p, color, list.data());
    if (failed(env, n, -1)) return nullptr;
    return boards_array(env, list.data(), n);
}

// The moves to each successor as strings in `notation` (EGDB_NOTATION_PDN or _HUB), in order.
JNIEXPORT jobjectArray JNICALL Java_egdb_Native_moveStrings(JNIEnv* env, jclass, jlong black, jlong white, jlong king,
                                                            jint color, jlongArray successors, jint notation) {
    const EgdbPosition p = position(black, white, king);
    const jsize n = env->GetArrayLength(successors) / 3;
    std::vector<EgdbPosition> after(static_cast<std::size_t>(n));
    env->GetLongArrayRegion(successors, 0, 3 * n, reinterpret_cast<jlong*>(after.data()));
    std::vector<std::string> moves;
    std::array<char, 128> text{};
    for (const EgdbPosition& q : after) {
        const int len = egdb_move_text(&p, &q, color, notation, text.data(), static_cast<int>(text.size()));
        if (failed(env, len, -1)) return nullptr;
        moves.emplace_back(text.data());
    }
    return string_array(env, moves);
}

// {black, white, king, color} of a Hub position string.
JNIEXPORT jlongArray JNICALL Java_egdb_Native_hubToPosition(JNIEnv* env, jclass, jstring hub) {
    const std::string text = to_string(env, hub);
    EgdbPosition p{};
    int color = 0;
    if (failed(env, egdb_hub_to_position(text.c_str(), &p, &color), -1)) return nullptr;
    const std::array<jlong, 4> out{static_cast<jlong>(p.black), static_cast<jlong>(p.white), static_cast<jlong>(p.king),
                                   color};
    jlongArray result = env->NewLongArray(4);
    if (result != nullptr) env->SetLongArrayRegion(result, 0, 4, out.data());
    return result;
}

JNIEXPORT jstring JNICALL Java_egdb_Native_positionToHub(JNIEnv* env, jclass, jlong black, jlong white, jlong king,
                                                         jint color) {
    const EgdbPosition p = position(black, white, king);
    std::array<char, EGDB_HUBLEN> hub{};
    if (failed(env, egdb_position_to_hub(&p, color, hub.data()), -1)) return nullptr;
    return env->NewStringUTF(hub.data());
}

// The position after a move in PDN or Hub notation, as long[3] (egdb_parse_move).
JNIEXPORT jlongArray JNICALL Java_egdb_Native_parseMove(JNIEnv* env, jclass, jlong black, jlong white, jlong king,
                                                        jint color, jstring move) {
    const EgdbPosition p = position(black, white, king);
    const std::string text = to_string(env, move);
    EgdbPosition after{};
    if (failed(env, egdb_parse_move(&p, color, text.c_str(), &after), -1)) return nullptr;
    return boards_array(env, &after, 1);
}

JNIEXPORT jboolean JNICALL Java_egdb_Native_isCapture(JNIEnv*, jclass, jlong black, jlong white, jlong king,
                                                      jint color) {
    const EgdbPosition p = position(black, white, king);
    return is_capture(&p, color) != 0 ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT jlong JNICALL Java_egdb_Native_sliceSize(JNIEnv* env, jclass, jint nbm, jint nbk, jint nwm, jint nwk) {
    const std::int64_t n = getdatabasesize_slice(nbm, nbk, nwm, nwk);
    if (n < 0) throw_error(env, static_cast<int>(n), -1);
    return n;
}

JNIEXPORT jlong JNICALL Java_egdb_Native_positionToIndex(JNIEnv* env, jclass, jlong black, jlong white, jlong king,
                                                         jint nbm, jint nbk, jint nwm, jint nwk) {
    const EgdbPosition p = position(black, white, king);
    const std::int64_t index = positiontoindex(&p, nbm, nbk, nwm, nwk);
    if (index < 0) throw_error(env, static_cast<int>(index), -1);
    return index;
}

JNIEXPORT jlongArray JNICALL Java_egdb_Native_indexToPosition(JNIEnv* env, jclass, jlong index, jint nbm, jint nbk,
                                                              jint nwm, jint nwk) {
    EgdbPosition p{};
    indextoposition(index, &p, nbm, nbk, nwm, nwk);
    // A slice always holds a piece: an all-zero position is the C function's "failed".
    if (p.black == 0 && p.white == 0) {
        throw_error(env, EGDB_BAD_ARGUMENT, -1);
        return nullptr;
    }
    return boards_array(env, &p, 1);
}

// --- databases --------------------------------------------------------------------------------

JNIEXPORT jint JNICALL Java_egdb_Native_open(JNIEnv* env, jclass, jstring options, jint cache_mb, jstring directory) {
    const std::string o = to_string(env, options);
    const std::string d = to_string(env, directory);
    const int handle = egdb_open(o.c_str(), cache_mb, d.c_str(), nullptr);
    failed(env, handle, -1);
    return handle;
}

JNIEXPORT void JNICALL Java_egdb_Native_close(JNIEnv* env, jclass, jint handle) {
    failed(env, egdb_close(handle), -1);
}

JNIEXPORT jint JNICALL Java_egdb_Native_type(JNIEnv* env, jclass, jint handle) {
    const int t = egdb_type(handle);
    failed(env, t, handle);
    return t;
}

JNIEXPORT jint JNICALL Java_egdb_Native_maxPieces(JNIEnv* env, jclass, jint handle) {
    const int n = egdb_max_pieces(handle);
    failed(env, n, handle);
    return n;
}

JNIEXPORT jint JNICALL Java_egdb_Native_lookupWithSearch(JNIEnv* env, jclass, jint handle, jlong black, jlong white,
                                                         jlong king, jint color) {
    const EgdbPosition p = position(black, white, king);
    const int v = egdb_lookup_with_search(handle, &p, color);
    failed(env, v, handle);
    return v;
}

// {wld, dtw, mtc} in the int array, the best move returned.
JNIEXPORT jstring JNICALL Java_egdb_Native_probe(JNIEnv* env, jclass, jint handle, jlong black, jlong white,
                                                 jlong king, jint color, jintArray values) {
    const EgdbPosition p = position(black, white, king);
    EgdbProbe out{};
    if (failed(env, egdb_probe(handle, &p, color, &out), handle)) return nullptr;
    const std::array<jint, 3> v{out.wld, out.dtw, out.mtc};
    env->SetIntArrayRegion(values, 0, 3, v.data());
    return env->NewStringUTF(out.best);
}

// Moves with distances: the strings returned; distances, wld in `numbers` (2 per move) and the
// positions after in `boards` (3 per move), both sized for EGDB_MAXMOVES by the caller.
JNIEXPORT jobjectArray JNICALL Java_egdb_Native_bestMoves(JNIEnv* env, jclass, jint handle, jstring fen, jint kind,
                                                          jintArray numbers, jlongArray boards) {
    const std::string f = to_string(env, fen);
    std::vector<EgdbMoveDistance> out(EGDB_MAXMOVES);
    const int n = egdb_best_moves(handle, f.c_str(), kind, out.data(), EGDB_MAXMOVES);
    if (failed(env, n, handle)) return nullptr;
    std::vector<std::string> moves;
    std::vector<jint> nums;
    std::vector<EgdbPosition> after;
    for (int i = 0; i < n; ++i) {
        const EgdbMoveDistance& m = out[static_cast<std::size_t>(i)];
        moves.emplace_back(m.move);
        nums.push_back(m.distance);
        nums.push_back(m.wld);
        after.push_back(m.after);
    }
    env->SetIntArrayRegion(numbers, 0, 2 * n, nums.data());
    env->SetLongArrayRegion(boards, 0, 3 * n, reinterpret_cast<const jlong*>(after.data()));
    return string_array(env, moves);
}

JNIEXPORT jstring JNICALL Java_egdb_Native_pv(JNIEnv* env, jclass, jint handle, jstring fen) {
    const std::string f = to_string(env, fen);
    for (std::size_t size = 4096;; size *= 4) {
        std::string buffer(size, '\0');
        const int n = egdb_pv(handle, f.c_str(), buffer.data(), static_cast<int>(buffer.size()));
        if (n == EGDB_BUFFER_TOO_SMALL && size < (std::size_t{1} << 24)) continue;
        if (failed(env, n, handle)) return nullptr;
        buffer.resize(static_cast<std::size_t>(n));
        return env->NewStringUTF(buffer.c_str());
    }
}

// WLD of n positions (long[3 * n] boards, int[n] colours) into int[n] results, in one C call.
// The arrays are copied out and in rather than pinned: pinning (GetPrimitiveArrayCritical) would
// stall the garbage collector of every other Java thread for the whole batch.
JNIEXPORT void JNICALL Java_egdb_Native_lookupBatch(JNIEnv* env, jclass, jint handle, jlongArray boards,
                                                    jintArray colors, jintArray results) {
    const jsize n = env->GetArrayLength(colors);
    if (env->GetArrayLength(boards) != 3 * n || env->GetArrayLength(results) != n) {
        throw_error(env, EGDB_BAD_ARGUMENT, -1);
        return;
    }
    std::vector<EgdbPosition> positions(static_cast<std::size_t>(n));
    std::vector<jint> sides(static_cast<std::size_t>(n));
    std::vector<jint> out(static_cast<std::size_t>(n));
    env->GetLongArrayRegion(boards, 0, 3 * n, reinterpret_cast<jlong*>(positions.data()));
    env->GetIntArrayRegion(colors, 0, n, sides.data());
    static_assert(sizeof(jint) == sizeof(int), "jint and the C ABI's int must match");
    const int rc = egdb_lookup_batch(handle, positions.data(), reinterpret_cast<const int*>(sides.data()), n,
                                     reinterpret_cast<int*>(out.data()));
    if (failed(env, rc, handle)) return;
    env->SetIntArrayRegion(results, 0, n, out.data());
}

JNIEXPORT jlongArray JNICALL Java_egdb_Native_stats(JNIEnv* env, jclass, jint handle) {
    EgdbStats s{};
    if (failed(env, egdb_stats(handle, &s), handle)) return nullptr;
    const std::array<jlong, 5> v{static_cast<jlong>(s.lookups), static_cast<jlong>(s.cache_hits),
                                 static_cast<jlong>(s.cache_misses), static_cast<jlong>(s.cache_bytes),
                                 static_cast<jlong>(s.files)};
    jlongArray out = env->NewLongArray(5);
    if (out != nullptr) env->SetLongArrayRegion(out, 0, 5, v.data());
    return out;
}

// The number of problems; their description is in lastError(handle).
JNIEXPORT jint JNICALL Java_egdb_Native_verify(JNIEnv* env, jclass, jint handle, jobject listener) {
    Progress progress = make_progress(env, listener);
    const int rc = egdb_verify(handle, &Progress::call, &progress);
    progress.finish(env, rc, handle);
    return rc;
}

JNIEXPORT jstring JNICALL Java_egdb_Native_lastError(JNIEnv* env, jclass, jint handle) {
    return env->NewStringUTF(egdb_last_error(handle));
}

JNIEXPORT void JNICALL Java_egdb_Native_build(JNIEnv* env, jclass, jstring directory, jint pieces, jint threads,
                                              jstring kinds, jboolean verify, jobject listener) {
    const std::string d = to_string(env, directory);
    const std::string k = to_string(env, kinds);
    Progress progress = make_progress(env, listener);
    const int rc = egdb_build(d.c_str(), pieces, threads, k.c_str(), verify ? 1 : 0, &Progress::call, &progress);
    progress.finish(env, rc, -1);
}

}  // extern "C"
